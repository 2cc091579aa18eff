/**
 * Country normalisation for job-posting feeds: ISO 3166-1 alpha-2 from a country field
 * (`normalizeCountry`) or a free-text location (`countryFromLocation`). Pure, and its one import
 * is the US states table the service shares (serve/text/us_states.ts); every table is built once at
 * module load.
 *
 * Matching ignores case, accents, dots, apostrophes, other punctuation, extra spaces and a
 * leading "the"; "Saint" and "St" are the same word. Ambiguity choices:
 * - A country field reads two letters as ISO alpha-2 ("CA" Canada, "IN" India, "DE" Germany),
 *   three as alpha-3, else names and aliases ("UK", "England" -> GB; "Deutschland" -> DE) and
 *   full US state or Canadian province names. It never reads cities. "Georgia" is the country.
 * - In a location, "City, XX" with a USPS state (or Canadian province) code is the US (Canada):
 *   "Wilmington, DE" -> US. Only when the city is a known one of the country XX names does XX
 *   stay alpha-2 ("Berlin, DE", "Mumbai, IN"); any other code after a known city is a region
 *   of the city's country ("Belo Horizonte, MG", "Geneva, GE"). A location that is only a code
 *   reads like a country field ("CA" -> Canada), except "LA"/"SF"/"NYC", which are cities.
 * - In "A, B, C" the last part that resolves wins ("London, Ontario, Canada" -> CA), unless
 *   two parts of the same kind disagree, which makes a list ("SF, NYC, Dublin"): the first wins.
 *   After a comma, "Georgia" is the US state unless the place before it is known elsewhere.
 * - Free text is split on `|` `;`, then ` or ` `/` `&` `and`, then " - ", then commas and
 *   parentheses; the most specific evidence wins (city > state/province > name or alias >
 *   bare code), ties go to the first. With three or more `|` parts, the first is the company
 *   name (Hacker News style) and is ignored. Codes in free text count only in capitals, as a
 *   whole part; those that are also job words ("IT", "AI", "QA", "HR", "PT") count only after a
 *   comma that follows a known city of that country. Person-like or common words ("Chad",
 *   "Jordan", "Jersey", "Turkey", "China", "Georgia") do not count as a standalone free-text part.
 * - "Remote (US)", "US Remote", "Remote - US only": what follows "remote" is read like a country
 *   field, and the first country of a list wins ("Remote (USA/Canada)" -> US). Regions are not
 *   countries: "Remote (EU)", "Europe", "EMEA", "Anywhere" and "Remote" alone give null; time
 *   zones (ET, PT, CET, UTC+1) are ignored. The rule is remote_qualifier unless a city or state
 *   was named ("Remote - San Francisco" -> city).
 * - US territories with their own ISO code resolve to it, as ISO does: Puerto Rico -> PR, also
 *   Guam, US Virgin Islands, American Samoa, Northern Mariana Islands. "NA" is "not available",
 *   not Namibia. Kosovo (XK) and the EU (EU) are not officially assigned and resolve to null.
 * - Ambiguous cities keep their most frequent meaning in tech postings (London GB, Paris FR,
 *   Dublin IE, Vancouver CA, Portland US, San Jose US, Birmingham GB, Waterloo CA); a state or
 *   province after the comma overrides it ("Vancouver, WA" -> US). Cambridge is left out.
 */
import { US_STATES } from "../../serve/text/us_states.ts";

/** Which rule resolved a country (recorded per posting in the build, and documented). */
export type CountryRule =
  | "alpha2"
  | "alpha3"
  | "name"
  | "alias"
  | "us_state"
  | "ca_province"
  | "city"
  | "remote_qualifier";

/** A resolved country and the rule that found it. */
export interface CountryMatch {
  code: string;
  rule: CountryRule;
}

// ISO 3166-1 as of 2024: alpha-2, alpha-3, and the English short name in common use (ISO's
// formal names, e.g. "Korea, Republic of", are aliases below).
const ISO_3166 =
  `AD AND Andorra|AE ARE United Arab Emirates|AF AFG Afghanistan|AG ATG Antigua and Barbuda
AI AIA Anguilla|AL ALB Albania|AM ARM Armenia|AO AGO Angola|AQ ATA Antarctica|AR ARG Argentina
AS ASM American Samoa|AT AUT Austria|AU AUS Australia|AW ABW Aruba|AX ALA Åland Islands
AZ AZE Azerbaijan|BA BIH Bosnia and Herzegovina|BB BRB Barbados|BD BGD Bangladesh|BE BEL Belgium
BF BFA Burkina Faso|BG BGR Bulgaria|BH BHR Bahrain|BI BDI Burundi|BJ BEN Benin
BL BLM Saint Barthélemy|BM BMU Bermuda|BN BRN Brunei|BO BOL Bolivia
BQ BES Bonaire, Sint Eustatius and Saba|BR BRA Brazil|BS BHS Bahamas|BT BTN Bhutan
BV BVT Bouvet Island|BW BWA Botswana|BY BLR Belarus|BZ BLZ Belize|CA CAN Canada
CC CCK Cocos (Keeling) Islands|CD COD DR Congo|CF CAF Central African Republic|CG COG Congo
CH CHE Switzerland|CI CIV Côte d'Ivoire|CK COK Cook Islands|CL CHL Chile|CM CMR Cameroon
CN CHN China|CO COL Colombia|CR CRI Costa Rica|CU CUB Cuba|CV CPV Cabo Verde|CW CUW Curaçao
CX CXR Christmas Island|CY CYP Cyprus|CZ CZE Czechia|DE DEU Germany|DJ DJI Djibouti
DK DNK Denmark|DM DMA Dominica|DO DOM Dominican Republic|DZ DZA Algeria|EC ECU Ecuador
EE EST Estonia|EG EGY Egypt|EH ESH Western Sahara|ER ERI Eritrea|ES ESP Spain|ET ETH Ethiopia
FI FIN Finland|FJ FJI Fiji|FK FLK Falkland Islands|FM FSM Micronesia|FO FRO Faroe Islands
FR FRA France|GA GAB Gabon|GB GBR United Kingdom|GD GRD Grenada|GE GEO Georgia
GF GUF French Guiana|GG GGY Guernsey|GH GHA Ghana|GI GIB Gibraltar|GL GRL Greenland
GM GMB Gambia|GN GIN Guinea|GP GLP Guadeloupe|GQ GNQ Equatorial Guinea|GR GRC Greece
GS SGS South Georgia and the South Sandwich Islands|GT GTM Guatemala|GU GUM Guam
GW GNB Guinea-Bissau|GY GUY Guyana|HK HKG Hong Kong|HM HMD Heard Island and McDonald Islands
HN HND Honduras|HR HRV Croatia|HT HTI Haiti|HU HUN Hungary|ID IDN Indonesia|IE IRL Ireland
IL ISR Israel|IM IMN Isle of Man|IN IND India|IO IOT British Indian Ocean Territory|IQ IRQ Iraq
IR IRN Iran|IS ISL Iceland|IT ITA Italy|JE JEY Jersey|JM JAM Jamaica|JO JOR Jordan|JP JPN Japan
KE KEN Kenya|KG KGZ Kyrgyzstan|KH KHM Cambodia|KI KIR Kiribati|KM COM Comoros
KN KNA Saint Kitts and Nevis|KP PRK North Korea|KR KOR South Korea|KW KWT Kuwait
KY CYM Cayman Islands|KZ KAZ Kazakhstan|LA LAO Laos|LB LBN Lebanon|LC LCA Saint Lucia
LI LIE Liechtenstein|LK LKA Sri Lanka|LR LBR Liberia|LS LSO Lesotho|LT LTU Lithuania
LU LUX Luxembourg|LV LVA Latvia|LY LBY Libya|MA MAR Morocco|MC MCO Monaco|MD MDA Moldova
ME MNE Montenegro|MF MAF Saint Martin|MG MDG Madagascar|MH MHL Marshall Islands
MK MKD North Macedonia|ML MLI Mali|MM MMR Myanmar|MN MNG Mongolia|MO MAC Macao
MP MNP Northern Mariana Islands|MQ MTQ Martinique|MR MRT Mauritania|MS MSR Montserrat
MT MLT Malta|MU MUS Mauritius|MV MDV Maldives|MW MWI Malawi|MX MEX Mexico|MY MYS Malaysia
MZ MOZ Mozambique|NA NAM Namibia|NC NCL New Caledonia|NE NER Niger|NF NFK Norfolk Island
NG NGA Nigeria|NI NIC Nicaragua|NL NLD Netherlands|NO NOR Norway|NP NPL Nepal|NR NRU Nauru
NU NIU Niue|NZ NZL New Zealand|OM OMN Oman|PA PAN Panama|PE PER Peru|PF PYF French Polynesia
PG PNG Papua New Guinea|PH PHL Philippines|PK PAK Pakistan|PL POL Poland
PM SPM Saint Pierre and Miquelon|PN PCN Pitcairn|PR PRI Puerto Rico|PS PSE Palestine
PT PRT Portugal|PW PLW Palau|PY PRY Paraguay|QA QAT Qatar|RE REU Réunion|RO ROU Romania
RS SRB Serbia|RU RUS Russia|RW RWA Rwanda|SA SAU Saudi Arabia|SB SLB Solomon Islands
SC SYC Seychelles|SD SDN Sudan|SE SWE Sweden|SG SGP Singapore
SH SHN Saint Helena, Ascension and Tristan da Cunha|SI SVN Slovenia|SJ SJM Svalbard and Jan Mayen
SK SVK Slovakia|SL SLE Sierra Leone|SM SMR San Marino|SN SEN Senegal|SO SOM Somalia
SR SUR Suriname|SS SSD South Sudan|ST STP São Tomé and Príncipe|SV SLV El Salvador
SX SXM Sint Maarten|SY SYR Syria|SZ SWZ Eswatini|TC TCA Turks and Caicos Islands|TD TCD Chad
TF ATF French Southern Territories|TG TGO Togo|TH THA Thailand|TJ TJK Tajikistan|TK TKL Tokelau
TL TLS Timor-Leste|TM TKM Turkmenistan|TN TUN Tunisia|TO TON Tonga|TR TUR Türkiye
TT TTO Trinidad and Tobago|TV TUV Tuvalu|TW TWN Taiwan|TZ TZA Tanzania|UA UKR Ukraine
UG UGA Uganda|UM UMI U.S. Minor Outlying Islands|US USA United States|UY URY Uruguay
UZ UZB Uzbekistan|VA VAT Holy See|VC VCT Saint Vincent and the Grenadines|VE VEN Venezuela
VG VGB British Virgin Islands|VI VIR U.S. Virgin Islands|VN VNM Vietnam|VU VUT Vanuatu
WF WLF Wallis and Futuna|WS WSM Samoa|YE YEM Yemen|YT MYT Mayotte|ZA ZAF South Africa
ZM ZMB Zambia|ZW ZWE Zimbabwe`;

// Alternative names, ISO formal names and native names ("XX=a;b;c"; a code may repeat).
const ALIASES = `AE=UAE;Emirates|AT=Österreich|BA=Bosnia;Bosnia-Herzegovina|BE=Belgique;België
BN=Brunei Darussalam|BO=Bolivia (Plurinational State of)|BR=Brasil|CH=Schweiz;Suisse;Svizzera
BQ=Bonaire;Caribbean Netherlands|CC=Cocos Islands|CV=Cape Verde|CI=Ivory Coast;Cote d Ivoire
CD=Democratic Republic of the Congo;Congo, Democratic Republic of the;DRC;Congo-Kinshasa
CG=Republic of the Congo;Congo-Brazzaville|CN=PRC;People's Republic of China;Mainland China;中国
CZ=Czech Republic;Česko|DE=Deutschland;Federal Republic of Germany|DK=Danmark|EE=Eesti
ES=España|FI=Suomi|FK=Falkland Islands (Malvinas);Falklands|GR=Hellas;Ellada
FM=Micronesia (Federated States of);Federated States of Micronesia|HR=Hrvatska|HU=Magyarország
GB=UK;Great Britain;Britain;England;Scotland;Wales;Northern Ireland
GB=United Kingdom of Great Britain and Northern Ireland|HK=Hong Kong SAR;Hong Kong SAR China
IE=Éire;Republic of Ireland|IN=Bharat|IR=Iran (Islamic Republic of);Islamic Republic of Iran
IT=Italia|JP=Nippon;Nihon;日本|KG=Kyrgyz Republic|LT=Lietuva|LV=Latvija
KP=Korea, Democratic People's Republic of;Democratic People's Republic of Korea;DPRK
KR=Korea;Korea, Republic of;Republic of Korea;대한민국;한국
LA=Lao People's Democratic Republic;Lao PDR|MD=Moldova, Republic of;Republic of Moldova
MK=Macedonia;Republic of North Macedonia|MM=Burma|MO=Macau;Macao SAR|NL=Holland;Nederland
NO=Norge|NZ=Aotearoa|PL=Polska|PS=Palestine, State of;State of Palestine;Palestinian Territories
RS=Srbija|RU=Russian Federation;Россия|SA=KSA;Kingdom of Saudi Arabia|SE=Sverige|SI=Slovenija
SK=Slovensko;Slovak Republic|SY=Syrian Arab Republic|SZ=Swaziland|TL=East Timor
TR=Turkey;Turkiye;Republic of Türkiye|TT=Trinidad|TW=Taiwan, Province of China;Republic of China
TZ=Tanzania, United Republic of;United Republic of Tanzania|UA=Україна
UM=United States Minor Outlying Islands|US=USA;America;United States of America
VA=Vatican;Vatican City;Vatican City State|VE=Venezuela (Bolivarian Republic of)
VG=Virgin Islands (British);Virgin Islands, British|VN=Viet Nam
VI=Virgin Islands (U.S.);Virgin Islands, U.S.;United States Virgin Islands;USVI`;

// The 50 states and DC by USPS code (serve/text/us_states.ts), and other names of two. Territories
// with their own ISO code (PR, GU, VI, AS, MP) are countries here, and their USPS codes equal their
// alpha-2.
const US_STATE_NAMES: [string, string][] = [
  ...US_STATES.filter((s) => s.code !== "PR").map((s): [string, string] => [s.code, s.name]),
  ["NY", "New York State"],
  ["WA", "Washington State"],
];

const PROVINCES = `AB=Alberta|BC=British Columbia|MB=Manitoba|NB=New Brunswick
NL=Newfoundland and Labrador;Newfoundland|NS=Nova Scotia|NT=Northwest Territories|NU=Nunavut
ON=Ontario|PE=Prince Edward Island|QC=Quebec|SK=Saskatchewan|YT=Yukon`;

// Tech hubs and the largest cities of postings. Ambiguous names keep their most frequent
// meaning in tech postings; Cambridge (UK or MA) is left out on purpose.
const CITIES =
  `US=San Francisco;SF;San Fran;Bay Area;SF Bay Area;Silicon Valley;Palo Alto;Mountain View
US=Menlo Park;Sunnyvale;Cupertino;San Jose;Santa Clara;Redwood City;San Mateo;Oakland;Berkeley
US=Emeryville;Fremont;Los Angeles;LA;Santa Monica;Irvine;San Diego;Pasadena;Culver City
US=Sacramento;New York City;NYC;Manhattan;Brooklyn;Jersey City;Hoboken;Seattle;Bellevue;Redmond
US=Kirkland;Tacoma;Spokane;Portland;Boston;Somerville;Waltham;Austin;Dallas;Houston;San Antonio
US=Plano;Fort Worth;Denver;Boulder;Chicago;Atlanta;Miami;Orlando;Tampa;Phoenix;Scottsdale;Tempe
US=Salt Lake City;Lehi;Provo;Minneapolis;Detroit;Ann Arbor;Pittsburgh;Philadelphia;Baltimore
US=Washington DC;Reston;Herndon;McLean;Bethesda;Raleigh;Durham;Research Triangle;Charlotte
US=Nashville;Columbus;Cincinnati;Cleveland;Indianapolis;St. Louis;Kansas City;Milwaukee;Madison
US=Las Vegas;New Orleans;Honolulu;Boise;Albuquerque;Omaha;Louisville;Memphis;Tucson;Stamford
US=Newark;Des Moines;Oklahoma City;Hartford;Providence;Jacksonville;Anchorage;Arlington;Charleston
CA=Toronto;Vancouver;Montreal;Ottawa;Calgary;Edmonton;Waterloo;Kitchener;Kitchener-Waterloo
CA=Mississauga;Markham;Winnipeg;Halifax;Quebec City;Saskatoon
GB=London;Manchester;Birmingham;Edinburgh;Glasgow;Bristol;Leeds;Liverpool;Oxford;Belfast
GB=Cardiff;Brighton;Sheffield;Nottingham;Newcastle upon Tyne;Milton Keynes
IE=Dublin;Cork;Galway;Limerick|PT=Lisbon;Lisboa;Porto|AT=Vienna;Wien;Graz;Linz
DE=Berlin;Munich;München;Hamburg;Frankfurt;Frankfurt am Main;Cologne;Köln;Stuttgart
DE=Düsseldorf;Leipzig;Dresden;Karlsruhe;Nuremberg;Nürnberg;Bonn;Hannover
NL=Amsterdam;Rotterdam;The Hague;Den Haag;Utrecht;Eindhoven;Delft;Groningen;Leiden
FR=Paris;Lyon;Toulouse;Marseille;Bordeaux;Lille;Nantes;Grenoble;Sophia Antipolis
ES=Madrid;Barcelona;Valencia;Seville;Sevilla;Malaga;Bilbao|CH=Zurich;Geneva;Basel;Lausanne;Bern;Zug
IT=Milan;Milano;Rome;Roma;Turin;Torino;Bologna;Naples|BE=Brussels;Bruxelles;Antwerp;Ghent
SE=Stockholm;Gothenburg;Göteborg;Malmö|DK=Copenhagen;København;Aarhus|NO=Oslo;Bergen;Trondheim
FI=Helsinki;Espoo;Tampere|IS=Reykjavik|PL=Warsaw;Warszawa;Krakow;Wroclaw;Gdansk;Poznan;Łódź
CZ=Prague;Praha;Brno|SK=Bratislava;Kosice|HU=Budapest|RO=Bucharest;Cluj-Napoca;Cluj;Iasi
BG=Sofia|RS=Belgrade;Novi Sad|HR=Zagreb|SI=Ljubljana|GR=Athens;Thessaloniki|EE=Tallinn
LV=Riga|LT=Vilnius;Kaunas|UA=Kyiv;Kiev;Lviv;Kharkiv;Odesa|BY=Minsk|RU=Moscow;St Petersburg
GE=Tbilisi|AM=Yerevan|TR=Istanbul;Ankara;Izmir|CY=Limassol;Nicosia|MT=Valletta
IL=Tel Aviv;Tel Aviv-Yafo;Jerusalem;Haifa;Herzliya|AE=Dubai;Abu Dhabi|SA=Riyadh;Jeddah
QA=Doha|EG=Cairo|NG=Lagos;Abuja|KE=Nairobi|ZA=Cape Town;Johannesburg|RW=Kigali|GH=Accra
MA=Casablanca|PK=Karachi;Lahore;Islamabad|BD=Dhaka|LK=Colombo|NP=Kathmandu
IN=Bangalore;Bengaluru;Mumbai;Bombay;Pune;Hyderabad;Chennai;Delhi;New Delhi;Delhi NCR;Gurgaon
IN=Gurugram;Noida;Kolkata;Ahmedabad;Kochi;Jaipur;Chandigarh;Coimbatore;Thiruvananthapuram
JP=Tokyo;Osaka;Kyoto;Fukuoka;Yokohama|KR=Seoul;Busan;Pangyo|TW=Taipei;Hsinchu
CN=Beijing;Shanghai;Shenzhen;Guangzhou;Hangzhou;Chengdu|PH=Manila;Makati;Cebu
TH=Bangkok;Chiang Mai|ID=Jakarta;Bandung;Bali|MY=Kuala Lumpur;Penang
VN=Ho Chi Minh City;Saigon;Hanoi;Da Nang|KH=Phnom Penh|NZ=Auckland;Wellington;Christchurch
AU=Sydney;Melbourne;Brisbane;Perth;Perth WA;Adelaide;Canberra
MX=Mexico City;CDMX;Guadalajara;Monterrey|AR=Buenos Aires|CL=Santiago|PE=Lima|EC=Quito
BR=São Paulo;Rio de Janeiro;Belo Horizonte;Florianópolis;Curitiba;Porto Alegre;Recife
CO=Bogotá;Medellín|UY=Montevideo`;

/** Parses "XX=a;b|YY=c" tables into [code, name] pairs (a code may repeat). */
function entries(table: string): [string, string][] {
  const out: [string, string][] = [];
  for (const entry of table.split(/[|\n]/)) {
    const [code, names] = entry.split("=");
    for (const name of names.split(";")) out.push([code.trim(), name.trim()]);
  }
  return out;
}

const FOLDS: Record<string, string> = {
  ß: "ss",
  ø: "o",
  æ: "ae",
  œ: "oe",
  đ: "d",
  ł: "l",
  ı: "i",
  þ: "th",
  ð: "d",
};
const NOT_ASCII = /[\u0080-\uffff]/;
const MARKS = /\p{M}/gu;
const UNDECOMPOSED = /[ßøæœđłıþð]/g;
const DROPPED = /['’‘`´.ʻ]/g; // "U.S.A." is "usa" and "People's" is "peoples"
const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;
const NOT_ALNUM_ASCII = /[^a-z0-9]+/g;
const ONE_WORD = /^[a-z]+$/;

/** The comparison form of a name: folded case and accents, words joined by single spaces. */
function keyOf(text: string): string {
  let s = text.toLowerCase();
  if (ONE_WORD.test(s)) return s; // the common case, kept cheap
  const ascii = !NOT_ASCII.test(s);
  if (!ascii) s = s.normalize("NFD").replace(MARKS, "").replace(UNDECOMPOSED, (c) => FOLDS[c]);
  if (s.includes("&")) s = s.replaceAll("&", " and ");
  s = s.replace(DROPPED, "").replace(ascii ? NOT_ALNUM_ASCII : NOT_ALNUM, " ").trim();
  if (s.startsWith("the ")) s = s.slice(4);
  return s.includes("saint") ? s.replace(/\bsaint\b/g, "st") : s;
}

interface Hit extends CountryMatch {
  /** How specific the evidence is: city 4, state or province 3, name or alias 2, code 1. */
  rank: number;
}

const RANK: Record<CountryRule, number> = {
  city: 4,
  us_state: 3,
  ca_province: 3,
  name: 2,
  alias: 2,
  remote_qualifier: 2,
  alpha2: 1,
  alpha3: 1,
};
// Parts of one kind that disagree make a list rather than a place hierarchy.
const KIND: Record<CountryRule, number> = {
  city: 3,
  us_state: 2,
  ca_province: 2,
  name: 1,
  alias: 1,
  remote_qualifier: 1,
  alpha2: 1,
  alpha3: 1,
};

function hit(code: string, rule: CountryRule): Hit {
  return { code, rule, rank: RANK[rule] };
}

const NAME_OF = new Map<string, string>();
const ALPHA3 = new Map<string, string>(); // lower-case alpha-3 -> alpha-2
const PLACES = new Map<string, Hit>(); // names, aliases, state and province names
const CITY = new Map<string, Hit>();
const STATE_CODES = new Set<string>();
const PROVINCE_CODES = new Set<string>();

/** Adds a key unless an earlier table already holds it (names beat aliases beat states). */
function addPlace(map: Map<string, Hit>, name: string, found: Hit): void {
  const key = keyOf(name);
  if (!map.has(key)) map.set(key, found);
}

for (const entry of ISO_3166.split(/[|\n]/)) {
  const [code, alpha3, name] = [entry.slice(0, 2), entry.slice(3, 6), entry.slice(7)];
  NAME_OF.set(code, name);
  ALPHA3.set(alpha3.toLowerCase(), code);
  addPlace(PLACES, name, hit(code, "name"));
}
for (const [code, name] of entries(ALIASES)) addPlace(PLACES, name, hit(code, "alias"));
for (const [code, name] of US_STATE_NAMES) {
  STATE_CODES.add(code);
  addPlace(PLACES, name, hit("US", "us_state"));
}
for (const [code, name] of entries(PROVINCES)) {
  PROVINCE_CODES.add(code);
  addPlace(PLACES, name, hit("CA", "ca_province"));
}
for (const [code, name] of entries(CITIES)) addPlace(CITY, name, hit(code, "city"));

/** All 249 officially assigned ISO 3166-1 alpha-2 codes (upper case). */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(NAME_OF.keys());

// Codes that are also job or tech words (or time zones): in free text they count only after
// a comma that follows a known city of that country ("Milan, IT").
const JOB_WORDS = new Set(
  ("AD AI AM AR BA BE BI BS CD CI CV CX DM ER ET GM GP HR IO IT ML PG PM PS PT PY QA RS SA SE SV " +
    "TV VC AND ARE ARM BEN BRA COM DOM ESP EST FIN GIN GUY IRL JAM LIE MAC MAR NOR PAN PER POL " +
    "SEN SUR TON VAT").split(" "),
);
// Person names and common words that a standalone free-text part does not resolve from.
const COMMON_WORDS = new Set(
  ["chad", "jordan", "jersey", "turkey", "china", "guinea", "niger", "georgia", "america", "sofia"],
);
// Values that mean "no value"; "NA" is not Namibia.
const PLACEHOLDERS = new Set(["na", "n a", "none", "null", "unknown", "tbd", "various", "other"]);

/**
 * Where a value is read: a country field, a whole location string, a part of free text, the
 * qualifier of "remote", or a part after a comma (which sees the part before it).
 */
type Where = "field" | "whole" | "segment" | "qualifier" | "after";

const LOWER_CASE = /[a-z]/;
const POSTAL = /^\s*([A-Za-z]{2})\s+(?:\d{5}(?:-\d{4})?|[A-Z]\d[A-Z] ?\d[A-Z]\d)\s*$/; // "CA 94105"
const AREA = /^(?:greater|metro) | (?:metropolitan |metro )?(?:area|region)$| metro$/g;

/** Reads a two- or three-character key: aliases, codes and city abbreviations. */
function lookupCode(raw: string, key: string, where: Where, prev: Hit | null): Hit | null {
  const place = PLACES.get(key);
  if (place?.rule === "alias") return place; // UK, USA, UAE in any case
  const code = key.toUpperCase();
  const alpha3 = key.length === 3 ? ALPHA3.get(key) ?? null : null;
  if (where === "field") return alpha3 ? hit(alpha3, "alpha3") : alpha2(code);
  if (where === "after") {
    if (LOWER_CASE.test(raw)) return null;
    const local = prev?.rule === "city" ? prev.code : null; // "Berlin, DE", "Dublin, IRL"
    if (alpha3) return local === alpha3 || !JOB_WORDS.has(code) ? hit(alpha3, "alpha3") : null;
    if (local === code && COUNTRY_CODES.has(code)) return hit(code, "alpha2");
    if (STATE_CODES.has(code)) return hit("US", "us_state");
    if (PROVINCE_CODES.has(code)) return hit("CA", "ca_province");
    if (prev !== null && local !== null) return prev; // a region: "Belo Horizonte, MG"
    if (!JOB_WORDS.has(code) && COUNTRY_CODES.has(code)) return hit(code, "alpha2");
    return CITY.get(key) ?? null;
  }
  if (where === "segment" && JOB_WORDS.has(code)) return null;
  const city = CITY.get(key);
  if (city) return city;
  if (where === "segment" && LOWER_CASE.test(raw)) return null;
  if (alpha3) return hit(alpha3, "alpha3");
  if (key.length === 3) return null;
  if (COUNTRY_CODES.has(code)) return hit(code, "alpha2");
  if (STATE_CODES.has(code)) return hit("US", "us_state");
  return PROVINCE_CODES.has(code) ? hit("CA", "ca_province") : null;
}

function alpha2(code: string): Hit | null {
  return code.length === 2 && COUNTRY_CODES.has(code) ? hit(code, "alpha2") : null;
}

/** Reads a longer key: names, aliases, state and province names, then cities. */
function lookupName(key: string, where: Where, prev: Hit | null): Hit | null {
  if (where === "segment" && COMMON_WORDS.has(key)) return null;
  // "Atlanta, Georgia" and "Savannah, Georgia" are the state; "Tbilisi, Georgia" the country.
  if (key === "georgia" && where === "after" && (prev === null || prev.code === "US")) {
    return hit("US", "us_state");
  }
  const place = PLACES.get(key);
  if (place) return place;
  if (where === "field") return null;
  const city = CITY.get(key);
  if (city) return city;
  const core = key.replace(AREA, ""); // "Greater Boston Area", "Paris Region"
  return core !== key && core !== "" ? lookupName(core, where, prev) : null;
}

/** Looks one clean value up in the tables, without splitting it. */
function lookup(raw: string, where: Where, prev: Hit | null): Hit | null {
  const key = keyOf(raw);
  if (key === "" || PLACEHOLDERS.has(key)) return null;
  if (key.length <= 3 && !key.includes(" ")) return lookupCode(raw, key, where, prev);
  const postal = where === "after" ? POSTAL.exec(raw) : null;
  if (postal) return lookupCode(postal[1], postal[1].toLowerCase(), where, prev);
  return lookupName(key, where, prev);
}

const SEGMENTS = /\s*[|;•]\s*/g;
const ALTERNATIVES = /\s*\/\s*|(?<!,)\s+(?:or|and)\s+|\s+[&+]\s+/gi;
const DASHES = /\s+[-–—]+\s+/g;
const HAS_SEGMENT = /[|;•]/;
const HAS_ALTERNATIVE = /[/&+]|\s(?:or|and)\s/i;
const HAS_DASH = /\s[-–—]/;
const GROUP = /[(),[\]]/;
const EDGE_CHARS = new Set(" \t\n\r\u00a0-–—:,;|/·•*");
const REMOTE = /\b(?:remote|remotely|anywhere|wfh|telecommute)\b/i;
const REMOTE_WORDS = new RegExp(
  String.raw`\b(?:remote(?:ly)?|anywhere|wfh|telecommute|work(?:ing)? from home|fully|full|` +
    String.raw`partially|only|ok|okay|friendly|first|based|within|from|across|eligible|` +
    String.raw`time ?zones?|tz|hours|work|working|position|roles?|jobs?|available|possible|` +
    String.raw`optional|preferred|allowed|residents?|citizens?|candidates?|hybrid|on-?site|` +
    String.raw`global(?:ly)?|worldwide|home|option|welcome|considered|located|must|live)\b|100\s*%`,
  "gi",
);
// Lower case only: "IN", "OR" are states. "or" and "and" stay: they separate alternatives
// ("Remote (US or Canada)").
const SMALL_WORDS = /\b(?:in|to|be|the|for|with)\b/g;
const TIME_ZONES = new RegExp(
  String.raw`\b(?:[ECMP][SD]?T|CES?T|GMT|UTC|BST|IST|EES?T|AES?T|AEDT|JST|SGT|HKT)\b` +
    String.raw`(?:\s*[+\-−]\s*\d{1,2}(?::?\d{2})?)?`,
  "g",
);
const MODE_WORDS = new RegExp(
  String
    .raw`\b(?:on-?site|on site|in-?person|in-office|office|offices|hybrid|based|located|locations?|` +
    String.raw`relocation|hq|headquarters)\b`,
  "gi",
);
const MODE_SMALL = /\b(?:in|at|near)\b/g;

/** Trims separators and quotes off the ends and unwraps one fully parenthesised value. */
function cleanEnds(text: string): string {
  let s = trimEdges(text);
  while (s.startsWith("(") && closesAtEnd(s)) s = trimEdges(s.slice(1, -1));
  return s;
}

function trimEdges(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (EDGE_CHARS.has(s[start]) || s[start] === ".")) start++;
  while (end > start && EDGE_CHARS.has(s[end - 1])) end--; // a final "." is "U.S."
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

function closesAtEnd(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "(") depth++;
    else if (s[i] === ")" && --depth === 0) return i === s.length - 1;
  }
  return false;
}

/** Splits on a separator outside parentheses: "Remote (USA/Canada)" stays whole on "/". */
function splitTop(text: string, separator: RegExp): string[] {
  let masked = text;
  if (text.includes("(")) {
    let depth = 0;
    const chars = text.split("");
    for (let i = 0; i < chars.length; i++) {
      if (chars[i] === "(") depth++;
      else if (chars[i] === ")") depth = Math.max(0, depth - 1);
      else if (depth > 0) chars[i] = "_";
    }
    masked = chars.join("");
  }
  const parts: string[] = [];
  let start = 0;
  for (const m of masked.matchAll(separator)) {
    parts.push(text.slice(start, m.index));
    start = m.index + m[0].length;
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p.trim() !== "");
}

/** The most specific hit among alternatives, ties to the first; in a country list, the first. */
function bestOf(parts: string[], where: Where): Hit | null {
  const firstWins = where === "field" || where === "qualifier"; // "Remote (US/Canada)"
  let best: Hit | null = null;
  for (const part of parts) {
    const found = resolve(part, where);
    if (found && firstWins) return found;
    if (found && (best === null || found.rank > best.rank)) best = found;
    if (best?.rank === RANK.city) break;
  }
  return best;
}

/** Reads "City, Region, Country" (parentheses count as commas): the last part that resolves. */
function fromGroup(parts: string[], where: Where): Hit | null {
  const hits: (Hit | null)[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = cleanEnds(parts[i]);
    const at: Where = i === 0 ? where : "after";
    const prev = i === 0 ? null : hits[i - 1];
    let found = lookup(part, at, prev);
    const bare = found ? part : part.replace(MODE_WORDS, " ").replace(MODE_SMALL, " ");
    if (!found && bare !== part) found = lookup(cleanEnds(bare), at, prev);
    hits.push(found);
  }
  const last = hits.findLastIndex((h) => h !== null);
  if (last < 0) return null;
  const decided = hits[last]!;
  let rank = decided.rank;
  for (let i = 0; i < last; i++) {
    const h = hits[i];
    if (h === null) continue;
    if (KIND[h.rule] === KIND[decided.rule] && h.code !== decided.code) {
      return hits.find((x) => x !== null)!; // a list: "SF, NYC, Dublin"
    }
    if (h.code === decided.code) rank = Math.max(rank, h.rank);
  }
  return rank === decided.rank ? decided : { ...decided, rank };
}

/** Reads what qualifies "remote": "Remote (US)", "US Remote", "Remote - US only". */
function fromRemote(text: string): Hit | null {
  const rest = text.replace(REMOTE_WORDS, " ").replace(SMALL_WORDS, " ").replace(TIME_ZONES, " ");
  const found = resolve(rest, "qualifier");
  if (found === null || KIND[found.rule] > 1) return found; // a city or state stays as it is
  return {
    code: found.code,
    rule: "remote_qualifier",
    rank: Math.max(found.rank, RANK.remote_qualifier),
  };
}

/** Resolves a value: directly, else by splitting it as free text (see the module comment). */
function resolve(raw: string, where: Where): Hit | null {
  const text = cleanEnds(raw);
  if (text === "") return null;
  const direct = lookup(text, where, null);
  if (direct) return direct;
  const inner: Where = where === "whole" ? "segment" : where;
  // The cheap tests first: most values hold no separator of a kind.
  let parts = HAS_SEGMENT.test(text) ? splitTop(text, SEGMENTS) : [];
  if (parts.length > 1) {
    // Hacker News style "Company | Role | Location | ...": the company is not a place.
    const company = parts.length >= 3 && text.includes("|") && where !== "field";
    return bestOf(company ? parts.slice(1) : parts, inner);
  }
  parts = HAS_ALTERNATIVE.test(text) ? splitTop(text, ALTERNATIVES) : [];
  if (parts.length > 1) return bestOf(parts, inner);
  if (REMOTE.test(text)) return fromRemote(text);
  if (where === "field") return null;
  parts = HAS_DASH.test(text) ? splitTop(text, DASHES) : [];
  if (parts.length > 1) return bestOf(parts, inner);
  parts = text.split(GROUP).filter((p) => p.trim() !== "");
  if (parts.length > 1) return fromGroup(parts, inner);
  const bare = text.replace(MODE_WORDS, " ").replace(MODE_SMALL, " ");
  return bare === text ? null : resolve(bare, inner);
}

const MAX_TEXT = 500;

function match(found: Hit | null): CountryMatch | null {
  return found === null ? null : { code: found.code, rule: found.rule };
}

/** Resolves a country field value ("US", "usa", "United States", "UK", "Remote (US)"), or null. */
export function normalizeCountry(value: string): CountryMatch | null {
  return match(resolve(value.length > MAX_TEXT ? value.slice(0, MAX_TEXT) : value, "field"));
}

/** Resolves free-text location strings as postings write them, or null when nothing is known. */
export function countryFromLocation(text: string): CountryMatch | null {
  // Locations are short; the cap bounds the cost of a stray description in the field.
  return match(resolve(text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text, "whole"));
}

/** English short name of a code, for docs/responses (e.g. "GB" -> "United Kingdom"). */
export function countryName(code: string): string | null {
  return NAME_OF.get(code.trim().toUpperCase()) ?? null;
}
