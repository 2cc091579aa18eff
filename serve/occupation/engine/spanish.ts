/**
 * Job titles written in Spanish, read in English before the ranking: U.S. employers of farm,
 * landscaping, kitchen, housekeeping and construction crews post "Ayudante de Cocina", "Jornalero
 * Agrícola" or "Camarista - Hotel", and no O*NET title is Spanish. Read word by word, those titles
 * matched nothing or an English word of the same spelling ("Pastor de Ovejas" went to the clergy).
 *
 * A title is read only when it has a Spanish job noun (ROLES) that is no English title word
 * (ENGLISH_TOO), or a phrase of the lexicon; then each part of it (between dashes, slashes,
 * brackets and commas) that has a word of the lexicon is read, and the rest stays as written.
 * Spanish puts the head first and its modifiers after ("trabajador agrícola general", "ayudante
 * de cocina"): the reading is the modifiers in reverse, then the complement after "de", then the
 * head ("general farm worker", "kitchen helper"). Words the lexicon lacks pass through as written
 * ("hotel", "chile").
 */

/** Phrases read whole, before the words (accents dropped, ñ kept, lower case). */
const PHRASES: readonly [RegExp, string][] = [
  [/\bpastor(?:es)? de (?:ovejas|borregos|ovinos)\b/g, "sheepherder"],
  [/\bpastor(?:es)? de cabras\b/g, "goat herder"],
  [/\bpastor(?:es)? de ganado\b/g, "livestock herder"],
  [/\bama de llaves\b/g, "housekeeper"],
  // A hotel's room maid ("camarera" alone is a waitress) and a house painter ("pintor de brocha
  // gorda", a broad brush's painter), in the words' Spanish order.
  [/\bcamarer[oa]s? de (?:piso|pisos|habitaciones|cuartos)\b/g, "housekeeper"],
  [/\bpintor(?:es)? de brocha gorda\b/g, "painter house"],
  // An amusement park's rides ("Operador de Juegos Mecánicos"), in the words' Spanish order;
  // "mecánicos" alone are mechanics.
  [/\bjuegos mecanicos\b/g, "rides amusement"],
  // A farm's field boss ("campo" alone is a field of any work), in the words' Spanish order.
  [/\b(mayordomo|capataz) de campo\b/g, "$1 agricola"],
  [/\bareas verdes\b/g, "grounds"],
  [/\bmano de obra\b/g, "laborer"],
  [/\btiempo completo\b/g, "full time"],
  [/\bmedio tiempo\b/g, "part time"],
  [/\bcomida rapida\b/g, "fast food"],
  [/\ben linea\b/g, "online"],
];

/** The phrases' patterns without the global flag (a global pattern's test() keeps state). */
const PHRASE_TESTS = PHRASES.map(([pattern]) => new RegExp(pattern.source));

/** Spanish job nouns and their English reading (accents dropped, ñ kept). */
const ROLES: Readonly<Record<string, string>> = {
  ayudante: "helper",
  ayudantes: "helpers",
  asistente: "assistant",
  auxiliar: "assistant",
  jardinero: "gardener",
  jardinera: "gardener",
  jardineros: "gardeners",
  capataz: "foreman",
  cuadrillero: "crew leader",
  cuadrillera: "crew leader",
  mayordomo: "foreman",
  encargado: "supervisor",
  encargada: "supervisor",
  jefe: "chief",
  gerente: "manager",
  lider: "lead",
  podador: "pruner",
  podadores: "pruners",
  jornalero: "laborer",
  jornaleros: "laborers",
  peon: "laborer",
  peones: "laborers",
  obrero: "laborer",
  obreros: "laborers",
  trabajador: "worker",
  trabajadora: "worker",
  trabajadores: "workers",
  pizcador: "picker",
  piscador: "picker",
  pizcadores: "pickers",
  recolector: "picker",
  recolectores: "pickers",
  cosechador: "harvest worker",
  cosechadores: "harvest workers",
  empacador: "packer",
  empacadora: "packer",
  empacadores: "packers",
  clasificador: "sorter",
  clasificadora: "sorter",
  borreguero: "sheepherder",
  borregueros: "sheepherders",
  ordeñador: "milker",
  ordeñadora: "milker",
  ordeñadores: "milkers",
  vaquero: "ranch hand",
  vaqueros: "ranch hands",
  tractorista: "tractor driver",
  regador: "irrigator",
  desyerbador: "weeder",
  deshierbador: "weeder",
  sembrador: "planter",
  plantador: "planter",
  cortador: "cutter",
  cortadores: "cutters",
  fileteador: "filleter",
  camarista: "housekeeper",
  camaristas: "housekeepers",
  recamarera: "housekeeper",
  mucama: "housekeeper",
  cocinero: "cook",
  cocinera: "cook",
  cocineros: "cooks",
  lavaplatos: "dishwasher",
  lavaloza: "dishwasher",
  mesero: "waiter",
  mesera: "waitress",
  camarero: "waiter",
  camarera: "waitress",
  camareros: "waiters",
  camareras: "waitresses",
  meseros: "waiters",
  cantinero: "bartender",
  cantinera: "bartender",
  cajero: "cashier",
  cajera: "cashier",
  techero: "roofer",
  techeros: "roofers",
  techador: "roofer",
  techadores: "roofers",
  pelador: "peeler",
  peladora: "peeler",
  peladores: "peelers",
  pintor: "painter",
  pintores: "painters",
  albañil: "mason",
  albañiles: "masons",
  carpintero: "carpenter",
  carpinteros: "carpenters",
  soldador: "welder",
  soldadores: "welders",
  electricista: "electrician",
  plomero: "plumber",
  mecanico: "mechanic",
  mecanicos: "mechanics",
  chofer: "driver",
  conductor: "driver",
  operador: "operator",
  operadora: "operator",
  operadores: "operators",
  limpiador: "cleaner",
  limpiadora: "cleaner",
  conserje: "janitor",
  lavandero: "laundry worker",
  lavandera: "laundry worker",
  costurera: "sewer",
  panadero: "baker",
  carnicero: "butcher",
  niñera: "nanny",
  cuidador: "caregiver",
  cuidadora: "caregiver",
  guardia: "guard",
  vigilante: "security guard",
  recepcionista: "receptionist",
  vendedor: "salesperson",
  vendedora: "salesperson",
  tecnico: "technician",
  tecnica: "technician",
  tecnicos: "technicians",
  instalador: "installer",
  instaladores: "installers",
  ensamblador: "assembler",
  ensambladora: "assembler",
  montador: "assembler",
  apicultor: "beekeeper",
  apicultores: "beekeepers",
  pescador: "fisher",
  pescadores: "fishers",
  garrotero: "busser",
  garrotera: "busser",
  caballerango: "horse groom",
  caballerangos: "horse grooms",
  arriero: "packer wrangler",
  becerrero: "calf feeder",
  amarrador: "tier",
  amarradora: "tier",
  amarradores: "tiers",
  picador: "picker",
  picadora: "picker",
  picadores: "pickers",
  injertador: "grafter",
  raleador: "thinner",
  desahijador: "thinner",
  cargador: "loader",
  cargadores: "loaders",
  estibador: "loader",
  afanador: "janitor",
  afanadora: "janitor",
  barrendero: "sweeper",
  velador: "night watchman",
  yesero: "plasterer",
  tablaroquero: "drywall installer",
  fierrero: "rebar worker",
  herrero: "ironworker",
  seleccionador: "sorter",
  seleccionadora: "sorter",
  sorteador: "sorter",
  sorteadora: "sorter",
  montacarguista: "forklift operator",
  pollero: "poultry worker",
  pollera: "poultry worker",
  salvavidas: "lifeguard",
  guardavidas: "lifeguard",
  supervisora: "supervisor",
  preparador: "preparer",
  preparadora: "preparer",
  lavatrastes: "dishwasher",
  despicador: "picker",
  despicadora: "picker",
  acabador: "finisher",
  acabadora: "finisher",
  caminador: "walker",
  mozo: "hand",
};

/** Spanish words of settings, crops and work, and their English reading. */
const OBJECTS: Readonly<Record<string, string>> = {
  agricola: "farm",
  agricolas: "farm",
  jardineria: "landscaping",
  paisajismo: "landscaping",
  cesped: "lawn",
  riego: "irrigation",
  cocina: "kitchen",
  linea: "line",
  viñedo: "vineyard",
  viñedos: "vineyard",
  viña: "vineyard",
  campo: "field",
  rancho: "ranch",
  ovino: "sheep",
  ovinos: "sheep",
  ovejas: "sheep",
  borregos: "sheep",
  cabras: "goats",
  ganado: "livestock",
  ganadero: "livestock",
  engorda: "feedlot",
  caña: "cane",
  lechuga: "lettuce",
  granja: "farm",
  feria: "carnival",
  ferias: "carnivals",
  galera: "shed",
  alimentos: "food",
  cuadra: "stable",
  albercas: "pool",
  piscinas: "pool",
  esparrago: "asparagus",
  esparragos: "asparagus",
  barco: "boat",
  camaronero: "shrimp",
  hipodromo: "racetrack",
  caballos: "horse",
  colmenas: "beehive",
  abejas: "bee",
  lecheria: "dairy",
  establo: "stable",
  invernadero: "greenhouse",
  vivero: "nursery",
  cosecha: "harvest",
  cuadrilla: "crew",
  campamento: "camp",
  fresa: "strawberry",
  fresas: "strawberry",
  uva: "grape",
  uvas: "grape",
  manzana: "apple",
  manzanas: "apple",
  naranja: "orange",
  naranjas: "orange",
  tomate: "tomato",
  tomates: "tomato",
  cebolla: "onion",
  cebollas: "onion",
  tabaco: "tobacco",
  algodon: "cotton",
  maiz: "corn",
  arboles: "tree",
  frutales: "fruit",
  frutas: "fruit",
  empaque: "packing",
  planta: "plant",
  carne: "meat",
  mariscos: "seafood",
  pescado: "fish",
  cangrejo: "crab",
  jaiba: "crab",
  camaron: "shrimp",
  aves: "poultry",
  pollo: "chicken",
  pollos: "chicken",
  cerdos: "hog",
  puercos: "hog",
  construccion: "construction",
  mantenimiento: "maintenance",
  limpieza: "cleaning",
  habitaciones: "room",
  cuartos: "room",
  restaurante: "restaurant",
  comida: "food",
  almacen: "warehouse",
  bodega: "warehouse",
  carga: "loading",
  camion: "truck",
  maquinaria: "machinery",
  equipo: "equipment",
  pesado: "heavy",
  pesada: "heavy",
  concreto: "concrete",
  techos: "roofing",
  pintura: "painting",
  madera: "wood",
  forestal: "forestry",
  bosque: "forest",
  reforestacion: "reforestation",
  pinos: "pine",
  alberca: "pool",
  piscina: "pool",
  temporada: "seasonal",
  temporal: "seasonal",
  noche: "night",
  general: "general",
};

/** Every word of the lexicon. */
const WORDS: Readonly<Record<string, string>> = { ...ROLES, ...OBJECTS };

/**
 * Words of the lexicon that are English title words (or names) too: they never make a title, or a
 * part of one, Spanish ("General Manager", "Conductor", "Pastor", "Bodega Clerk" stay English).
 */
const ENGLISH_TOO = new Set([
  "general",
  "conductor",
  "chofer",
  "pastor",
  "planta",
  "campo",
  "rancho",
  "carga",
  "guardia",
  "vigilante",
  "temporal",
  "auxiliar",
  "montador",
  "noche",
  "bodega",
  "pollo",
  "pollos",
  "aves",
  "madera",
  "bosque",
  "cocina",
]);

/** Articles and prepositions a reading drops or uses ("de" splits head and complement). */
const ARTICLES = new Set(["el", "la", "los", "las", "un", "una", "para", "en", "con"]);

/**
 * Accents dropped, ñ kept, lower case. Not the project's foldText: it drops the tilde too, and ñ
 * tells words apart ("ordeñador" is a milker, "ordenador" a computer).
 */
function fold(text: string): string {
  const lower = text.toLowerCase();
  if (!/[^\u0020-\u007e]/.test(lower)) return lower; // ASCII: nothing to drop
  // The tilde (U+0303) stays, so ñ composes again; other marks go (á -> a).
  return lower.normalize("NFD").replace(/[\u0300-\u0302\u0304-\u036f]/g, "")
    .normalize("NFC");
}

/** A word read in English, or as written (own keys only: "constructor" is no reading). */
const word = (w: string) => Object.hasOwn(WORDS, w) ? WORDS[w] : w;

/** One part of a title read in English: modifiers in reverse, the complement, then the head. */
function readPart(part: string): string {
  let text = fold(part).replace(/\bdel\b/g, "de");
  for (const [pattern, reading] of PHRASES) text = text.replace(pattern, reading);
  const words = text.split(/\s+/).filter((w) => w !== "" && !ARTICLES.has(w));
  const groups: string[][] = [[]];
  for (const w of words) {
    if (w === "de") groups.push([]);
    else if (w === "y" || w === "e") groups.at(-1)!.push("and");
    else groups.at(-1)!.push(w);
  }
  // "mantenimiento de areas verdes": each group is a head and its modifiers; the last group
  // modifies the one before it.
  const english = groups.filter((g) => g.length > 0).map(([head, ...mods]) =>
    [...chunks(mods).reverse().map((chunk) => chunk.map(word).join(" ")), word(head)].join(" ")
  );
  return english.reverse().join(" ");
}

/**
 * Modifiers in chunks: each lexicon word alone, and each run of other words together, so that an
 * English phrase among them keeps its order ("operador tecnico back end": "back end technician
 * operator").
 */
function chunks(words: string[]): string[][] {
  const out: string[][] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (!Object.hasOwn(WORDS, w) && last && !Object.hasOwn(WORDS, last[0])) last.push(w);
    else out.push([w]);
  }
  return out;
}

/** Whether a text has a phrase of the lexicon, or one of its words (of `words`) English lacks. */
function hasSpanish(text: string, words: Readonly<Record<string, string>>): boolean {
  const folded = fold(text);
  if (PHRASE_TESTS.some((pattern) => pattern.test(folded))) return true;
  return folded.split(/[^a-zñ]+/).some((w) => Object.hasOwn(words, w) && !ENGLISH_TOO.has(w));
}

/**
 * The title with its Spanish parts read in English ("Ayudante de Cocina" -> "kitchen helper",
 * "Jornalero Agrícola - Cosecha de Fresa" -> "farm laborer - strawberry harvest"); a title with
 * none is returned as it is.
 */
export function spanishAsEnglish(title: string): string {
  // A Spanish job noun (or phrase) makes the title Spanish; a crop or a place alone does not
  // ("UVA Augusta Pediatrics" is a university's clinic, not grapes).
  if (!hasSpanish(title, ROLES)) return title;
  // Parts and their separators, kept: a reading changes only the parts with Spanish words.
  return title.split(/(\s*[-–—/(),|:]\s*)/).map((piece, i) =>
    i % 2 === 1 || !hasSpanish(piece, WORDS) ? piece : readPart(piece)
  ).join("");
}
