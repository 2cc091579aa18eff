import assert from "node:assert/strict";
import {
  abbreviates,
  cleanTitle,
  schoolLevel,
  settingReading,
  taxPractice,
  twoForms,
} from "./text.ts";

const words = (text: string) => text.split(" ");

Deno.test("abbreviates: contractions, acronyms of word prefixes, joining words", () => {
  const yes: [string, string][] = [
    ["pa tech", "public address technician"],
    ["sped admin", "special education administrator"],
    ["hs sped teacher", "high school special education teacher"],
    ["dept store gm", "department store general manager"],
    ["rn", "registered nurse"],
    ["cadd instructor", "computer aided drafting and design instructor"],
    ["m and a banker", "mergers and acquisitions banker"],
    ["deli clerk", "delicatessen clerk"],
  ];
  for (const [short, long] of yes) assert.ok(abbreviates(words(short), words(long)), short);
  const no: [string, string][] = [
    ["rn", "nurse"], // the acronym must be made of the words' first letters
    ["farm worker", "vegetables"],
    ["cook", "cook"], // the same words: nothing is shortened
    ["pa", "public address technician"], // every word of the long form is used
    ["tech", "chemist"],
  ];
  for (const [short, long] of no) assert.ok(!abbreviates(words(short), words(long)), short);
});

Deno.test("twoForms: a title and its written-out or shortened form, else null", () => {
  assert.deepEqual(twoForms("SPED Admin (Special Education Administrator)"), [
    "SPED Admin",
    "Special Education Administrator",
  ]);
  assert.deepEqual(twoForms("Public Address Technician (PA Tech)"), [
    "Public Address Technician",
    "PA Tech",
  ]);
  assert.equal(twoForms("Farm Worker (Vegetables)"), null);
  assert.equal(twoForms("Nurse (RN)"), null);
  assert.equal(twoForms("Driver (Class A, 2 years)"), null);
  assert.equal(twoForms("Tactical/Mobile (Tacmobile) Ashore Operator"), null);
  assert.equal(twoForms("Cook"), null);
});

Deno.test("schoolLevel reads a school level from words or grades; a span over two levels is none", () => {
  const cases: [string, string | null][] = [
    ["math teacher - grades 6-8", "middle school"],
    ["science teacher - grades 9-12", "high school"],
    ["teacher, grade 3", "elementary school"],
    ["teacher - 5th grade", "elementary school"],
    ["grade 6 science teacher", "middle school"],
    ["bilingual teacher k-5", "elementary school"],
    ["sped teacher - high school", "high school"],
    ["spanish teacher (junior high)", "middle school"],
    ["teacher assistant - pre-k", "preschool"],
    ["teacher k-12", null],
    ["teacher assistant - high school diploma required", null],
    ["sub teacher (kindergarten to 12th grade substitute teacher)", null],
    ["kindergarten teacher", null],
    ["math teacher grades 6-12", null],
    ["math teacher", null],
    ["teacher - 2024-25 school year", null],
  ];
  for (const [title, level] of cases) assert.equal(schoolLevel(title), level, title);
});

Deno.test("cleanTitle writes a teacher's school level into the title, and drops the K of K-12", () => {
  const known = (segment: string) => segment.length;
  assert.equal(cleanTitle("Math Teacher - Grades 6-8", known).text, "middle school math teacher");
  assert.deepEqual(cleanTitle("SPED Teacher - High School", known), {
    text: "high school sped teacher",
    rest: "",
  });
  assert.equal(cleanTitle("Teacher K-12", known).text, "teacher");
  // A level the title already names, or no teacher: unchanged.
  assert.equal(cleanTitle("Elementary Teacher - Grade 8", known).text, "elementary teacher");
  const driver = (segment: string) => segment.includes("driver") ? 2 : 1;
  assert.deepEqual(cleanTitle("Bus Driver - High School", driver), {
    text: "bus driver",
    rest: "high school",
  });
});

Deno.test("cleanTitle gives a bare role the best of several parts that names a role", () => {
  // Parts with a role head score 100 and more, as OccupationIndex.segmentScore has them.
  const score = (segment: string) =>
    /nurse$/.test(segment) ? 150 : segment === "supervisor" ? 400 : segment === "rn" ? 20 : 5;
  assert.deepEqual(cleanTitle("Registered Nurse - RN - Supervisor", score), {
    text: "registered nurse supervisor",
    rest: "", // "RN" is written out as the same part
  });
  // Of three parts, one without a role head does not become the role's domain.
  const weak = (segment: string) => segment === "supervisor" ? 400 : 20;
  assert.equal(cleanTitle("Supervisor - Night Shift Team - Dock 4", weak).text, "supervisor");
});

Deno.test("settingReading: a racetrack's groom is an animal caretaker, a hotel's room attendant a maid", () => {
  const caretakers = [
    "Groom - Racetrack",
    "Hot Walker/Groom - Race Track",
    "Stable Hand - Polo Club",
    "Barn Worker - Thoroughbred Training Center",
    "Show Groom - Hunter/Jumper",
  ];
  for (const title of caretakers) assert.equal(settingReading(title), "animal caretaker", title);
  const rooms = ["Room Attendant - Hotel", "Casino Hotel Room Attendant", "Rm Attendant (Resort)"];
  for (const title of rooms) assert.equal(settingReading(title), "guest room attendant", title);
  const others: [string, string][] = [
    ["Lift Operator - Ski Resort", "ski lift operator"],
    ["Chairlift Operator (Ski Area)", "ski lift operator"],
    ["Game Agent - Carnival Midway", "carnival worker"],
    ["Jointee - Traveling Show", "carnival worker"],
    ["Raw Bar Shucker - Oyster Bar", "food preparation worker"],
    ["Shucker, oyster (raw bar)", "food preparation worker"],
    ["Vineyard Pruners", "crop farmworker"],
    ["Tree Fruit Pruner - Dormant Season", "crop farmworker"],
    ["Tomato Sorter - Packing Shed", "produce sorter"],
    ["Burley Tobacco Grader", "produce sorter"],
    ["Tractor Driver - Disking & Cultivating", "agricultural equipment operator"],
    ["Sugar Beet Harvester Operator", "agricultural equipment operator"],
    ["Cherry Picker - Seasonal (June-Aug)", "crop farmworker"],
    ["Tobacco Primer - Flue-Cured Hand Harvest", "crop farmworker"],
    // A crop's hand work by an uncommon role (ranker 141).
    ["Pecan Knocker", "crop farmworker"],
    ["Sucker Puller - Burley", "crop farmworker"],
    ["Tobacco Hander", "crop farmworker"],
    ["Sugar Beet Blocker", "crop farmworker"],
    ["Raisin Tray Turner", "crop farmworker"],
    ["Melon Stacker", "crop farmworker"],
    ["Crab Pickers - Blue Crab Plant", "seafood processor"],
    ["Line Worker - Poultry Evisceration", "seafood processor"],
    ["Fish House Worker", "seafood processor"],
    ["Kill Floor Worker - Beef Plant", "slaughterer"],
    ["Hide Puller - Beef Kill", "slaughterer"],
    // Ranker 141: any hand role of a kill floor, a crab plant's crackers, a carnival's bosses.
    ["Gutter - Kill Floor", "slaughterer"],
    ["Head Knocker, slaughter line", "slaughterer"],
    ["Claw Cracker - Crab Plant", "seafood processor"],
    ["Carnival Ride Boss", "rides supervisor"],
    ["Midway Foreman - County Fair", "rides supervisor"],
    ["Ride Op. - Water Park", "amusement attendant"],
    ["Dunk Tank Attendant", "amusement attendant"],
    ["Jockey - Thoroughbred Racing", "professional jockey"],
    ["Almond Sweeper Operator", "agricultural equipment operator"],
    ["Equip. Oper. - Farm Tillage", "agricultural equipment operator"],
  ];
  for (const [title, reading] of others) assert.equal(settingReading(title), reading, title);
  const stay = [
    "Groom", // no setting: as O*NET lists it
    "Lift Operator - Warehouse", // a forklift
    "Game Attendant - Casino",
    "Oyster Shucker - Processing Plant", // the plant's cutters and trimmers
    "Pruner - Utility Right-of-Way", // a road's or a line's trees
    "Pruner", // no setting
    "Mail Sorter",
    "Sorter - Produce Distribution Warehouse",
    "Tractor Trailer Driver - Produce", // a truck
    "Order Picker - Produce Warehouse",
    "Cattle Sorter - Feedyard", // live animals, not produce
    "Hay Bucker / Stacker", // the bale wagon's operator as often as a hand
    "Box Stacker / Palletizer - Packing Shed", // the shed's material movers
    "Knocker, packinghouse", // a meat packinghouse's slaughterer
    "Cotton Cutter", // O*NET's cutting machine tenders have the cutters of crops
    "Pruner - Goat Dairy",
    "Cannery Line Worker - Salmon Canning", // the canning machines' tenders
    "Deckhand - Shrimp Boat",
    "Groom Supervisor - Racetrack", // the role is the supervisor's
    "Room Attendant", // no setting
    "Room Attendant Supervisor - Hotel",
    "Dish Room Attendant - Hotel Banquets", // another room's attendant
    "Room Service Attendant - Hotel",
    "Kill Floor Supervisor",
    "Silage Truck Driver", // a truck, not a tractor
    "Jockey", // no setting: the truck drivers' and the athletes' title
    "Jockey's Valet - Racetrack",
    "Sanitation Worker - Kill Floor", // the plant's cleaners
    "Ride Assembly Supervisor", // a factory's
  ];
  for (const title of stay) assert.equal(settingReading(title), null, title);
});

Deno.test("settingReading: landscape, live-animal and forest work by its setting words", () => {
  const readings: [string, string | null][] = [
    ["Mulch Crew Laborer", "landscape laborer"],
    ["Bunker Raker - Golf Club", "landscape laborer"],
    ["Weed Eater Operator", "landscape laborer"],
    ["Sheep Camp Tender", "livestock laborer"],
    ["Calf Raiser - Dairy Heifers", "livestock laborer"],
    ["Branding Crew Hand", "livestock laborer"],
    ["Branding Machine Tender", null], // a factory's
    ["Dairy Processing Equipment Operator", null], // a plant's
    ["Fall Cleanup Laborer - Leaf Removal", "landscape laborer"],
    ["String Trimmer/Edger Operator (Weed Eater)", "landscape laborer"],
    ["Golf Course Crew - Divot Filling", "landscape laborer"],
    ["Irrigation Installer Helper - Landscape Sprinklers", "landscape laborer"],
    ["HOG BARN WORKER - FINISHER SITE", "livestock laborer"],
    ["Lambing Shed Hand", "livestock laborer"],
    ["Chicken Catcher - Live Haul Crew", "livestock laborer"],
    ["Foaling Attendant (Night Watch)", "livestock laborer"],
    ["Apiary Worker - Honey Season", "livestock laborer"],
    // Not the crop rows' (a farm's animals): the animal farmworkers, as O*NET has these titles.
    ["Field Hand - Cattle Ranch", "livestock laborer"],
    ["Fish Hatchery Worker", "livestock laborer"],
    ["Poultry House Worker - Broiler Breeder", "livestock laborer"],
    // A farmworker or a hand of a dairy, hogs, poultry or bees (ranker 137).
    ["Farmworker - Hogs", "livestock laborer"],
    ["Farmworker - Dairy (Calf Care)", "livestock laborer"],
    ["Dairy Hand (Night Shift)", "livestock laborer"],
    ["Duck Farm Worker", "livestock laborer"],
    ["Poultry Plant Worker", "seafood processor"], // a plant's: the cutters and trimmers
    // O*NET's own titles of other work (ranker 140): a plant's helper, a wood hog's tender, a
    // pig iron loader, an animal breeder.
    ["Dairy Helper", null],
    ["Hog Worker", null],
    ["Pig Iron Loader", null],
    ["Poultry Husbandry Worker", null],
    // What an exclusion clause names is no setting.
    ["Farmworker -- exc. livestock", null],
    ["Engineer, marine -- exc. ship's officer", null],
    ["Cone Collector - Seed Orchard", "forestry worker"],
    ["Balsam Tipper (Wreath Greens)", "forestry worker"],
    ["Brush Cutter - Forestry / Fuels Reduction", "forestry worker"],
    // A crop field's laborer, hand or crew that names no farm (ranker 116).
    ["Cotton Hoeing Laborer", "crop farmworker"],
    ["Hop Yard Laborer - Stringing/Training", "crop farmworker"],
    ["Seasonal Ag Laborer - Watermelon/Cantaloupe", "crop farmworker"],
    ["Tobacco Barn Hand - Housing/Hanging", "crop farmworker"],
    ["Farm Labor - Sweet Cherries", "crop farmworker"], // a crop word, with a farm's
    ["Farm Crew Member", null], // a farm's without a crop word: as O*NET has it
    // A deckhand of a passenger or work boat is a sailor; a fishing boat's stays as written.
    ["Deckhand - Excursion Vessel", "boat crew deck hand"],
    ["Ferry Deck Hand", "boat crew deck hand"],
    ["Deckhand - Commercial Fishing Vessel", null],
    ["Crab Boat Deckhand - Tour Season", null],
    ["Deckhand", null],
    // A ride's, water park's or midway's attendant, and a recreation rental's attendant, are
    // amusement and recreation attendants; a gate's, a concession's or a rental clerk stays.
    ["Bumper Car Attendant", "amusement attendant"],
    ["Water Slide Dispatcher - Water Park", "amusement attendant"],
    ["Kayak Rental Attendant", "amusement attendant"],
    ["Lift Operator - Chairlift", "ski lift operator"],
    // A deer or wild-game processor is a butcher; a colt starter trains horses.
    ["Deer Processor - Hunting Season", "butcher"],
    ["Wild Game Processing Worker", "butcher"],
    ["Meat cutter, supermarket", "butcher"], // a retail counter's (ranker 138)
    ["Meat Cutter - Packing Plant", null],
    ["Chicken Butcher - Hunting Season", null],
    ["Colt Starter - Ranch Remuda", "horse breaker"],
    ["Gate Attendant - County Fair", null],
    ["Bike Rental Clerk", null],
    ["Rideshare Driver", null],
    ["Talent Attraction Associate", null],
    // Trades and services by their settings (ranker 118).
    ["Orchard Spray Rig Operator", "pesticide applicator"],
    ["Paint Sprayer", null],
    ["Concrete Flatwork Finisher", "concrete finisher"],
    ["Flatwork Finisher", null],
    ["Hod Carrier (Masonry Crew)", "brick mason helper"],
    ["Excavator Operator - Site Prep", "heavy construction equipment operator"],
    ["Excavator Operator - Quarry", null],
    ["Attendant, psychiatric ward", "psychiatric aide"],
    ["Psychiatric Technician", null],
    ["Counterman, lunch counter", "snack bar attendant"],
    ["Counterman", null],
    ["Cook, grill (diner)", "short order cook"],
    ["Condo Turnover Cleaner - Vacation Rentals", "housekeeping cleaner"],
    ["Aircraft Cabin Cleaner", null],
    ["Tobacco Crew Leader", "farm supervisor"],
    ["Field Supervisor", null],
    ["Infant Nursery Supervisor", null],
    ["Pine Straw Raker/Baler", "forestry worker"],
    // Nor a sorting line's, an athletic field's, a pond's or a camp's cook.
    ["Onion Sorting Line Worker", null],
    ["Athletic Field Maintenance Worker", null],
    ["Pond Hand - Crawfish Farm", "livestock laborer"], // a farm's crawfish are livestock
    ["Stable Hand - Thoroughbred Breeding Farm", "livestock laborer"], // and its horses
    // A packing shed's packer packs produce by hand; a field packer works the harvest.
    ["Salmon Processor - Slime Line", "seafood processor"],
    ["Feed Truck Driver - Cattle Feedyard", "agricultural equipment operator"],
    ["Grain Cart Driver", "agricultural equipment operator"],
    ["Tractor Trailer Driver - Farm Produce", null],
    ["Crawfish Pond Harvester", "livestock laborer"],
    ["Barn Help - Boarding Stable", "animal caretaker"],
    ["Housekeeping Aide - Hotel", "guest room attendant"],
    ["Housekeeping Aide", null],
    // A tester or QA lead of software, apps or a business system tests software (ranker 121).
    ["Manual QA Tester - Healthcare Portal", "software test analyst"],
    ["Test Lead - ETL/Data Warehouse", "software test analyst"],
    ["Tester, video games", "software test analyst"],
    ["QA Tester", null],
    ["Quality Assurance Tester - Plastics Plant", null],
    ["IT Security Tester", null],
    // A resort's, camp's, marina's or building's maintenance worker maintains it.
    ["Maintenance Worker - Seasonal Marina", "general maintenance worker"],
    ["Building Maintenance Worker - Summer Camp", "general maintenance worker"],
    ["Maintenance Worker - Golf Course", "landscape laborer"], // the grounds row's
    ["Maintenance Worker", null],
    // A full-service restaurant's line or fry cook; a pipeline's or trench's laborer.
    ["Fry Cook - Crab House", "restaurant cook"],
    ["Cook, line (restaurant)", "restaurant cook"],
    ["Fry Cook - Fast Food Restaurant", "fast food cook"], // the next row's
    ["Prep Cook - Seafood Restaurant", null],
    ["Pipeline Laborer - Right-of-Way", "construction laborer"],
    ["Trail Crew Laborer - Erosion Control", null],
    ["Paving Laborer", null],
    // A jail's sergeant; a boiler's fireman; a yard's night watchman (ranker 123).
    ["Captain, corrections", "correctional supervisor"],
    ["Captain, towboat (inland waterway)", null],
    ["Fireman, boiler (factory)", "boiler operator"],
    ["Fireman, city fire department", null],
    ["Watchman, night (lumber yard)", "security guard"],
    ["Horse Farm Hand - Foaling Season (Night Watchman)", "livestock laborer"],
    // A drive-in's or food trailer's cook; a coffee shop's waitress (ranker 124).
    ["Cook, drive-in restaurant", "fast food cook"],
    ["Funnel Cake Cook - Carnival Food Trailer", "fast food cook"],
    // The clause excludes fast food: a restaurant's cook (it had stopped the row before 137).
    ["Cook, restaurant -- exc. fast food", "restaurant cook"],
    ["Short Order Cook - Boardwalk Grill", null],
    ["Waitress, coffee shop", "waiter"],
    ["Banquet Server - Resort", null],
    ["Dining Room Server", null],
    // A bucket truck's trimmer trims trees; a marina's dock hand serves boats (ranker 125).
    ["Bucket Truck Trimmer - Utility ROW", "line clearance trimmer"],
    ["Trimmer (poultry processing)", "seafood processor"], // the plant row's
    ["Marina Dockhand", "dock attendant"],
    ["Dock Hand - Distribution Center", null],
    // An app's or a web platform's product designer, and a UX designer (ranker 126).
    ["Senior Product Designer, Web Platform", "web designer"],
    ["Interaction Designer - Mobile", "web designer"],
    ["Lead UX Designer", "web designer"],
    ["Product Designer - Furniture", null],
    ["UX Product Designer", null], // O*NET's industrial designers' as written
    // A strategy, transformation or process improvement consultant (ranker 127).
    ["Senior Consultant, Strategy & Operations", "management analyst"],
    ["Operational Excellence Consultant", "management analyst"],
    ["Analyst, methods and procedures", "management analyst"],
    ["Marketing Strategy Consultant", null],
    ["Fraud Strategy Analyst", null],
    ["Employee Engagement Manager", null],
    ["Efficiency Analyst", null],
    // A systems, integration or solution analyst (ranker 128).
    ["Senior Systems Analyst, Core Banking", "computer systems analyst"],
    ["Integration Analyst - HL7/FHIR", "computer systems analyst"],
    ["Health Systems Analyst", null],
    ["Supply Chain Systems Analyst", null],
    ["Clamshell Packer - Berry Shed", "agricultural produce packer"],
    ["Field Packer - Melons", "crop farmworker"],
    ["Lettuce Harvest Crew - Cutter/Packer", null],
    ["Cotton Ball Bagger", null],
    ["Cook - Labor Camp Kitchen (H-2A Workers)", null],
    ["Field Based Community Health Worker", null],
    // The other setting, another role, or the supervisor of the crew: read as written.
    ["Hand-Line Mover - Sprinkler Irrigation (Alfalfa/Potatoes)", null],
    ["Lawn Mower Repair Helper", null],
    ["Landscape Crew Foreman", null],
    ["Landscape Architect", null],
    ["Poultry Processing Plant Worker", "seafood processor"],
    ["Hog Slaughter Plant Worker", null],
    ["Veterinary Clinic Kennel Attendant - Calving Season", null],
    ["Dairy Plant Worker", null],
    ["Christmas Tree Lot Worker", null],
    ["Nursery Worker - Seedlings", null],
    ["Forest Nursery Worker - Seedlings", "forestry worker"],
    ["Wildland Fire Crew Member - Forest Service", null],
    // A trade's layer, a fire sprinkler fitter, a sawmill's edger, a traffic cone are not these.
    ["Brick Layer Helper", null],
    ["Carpet Layer Helper", null],
    ["Layer House Worker - Egg Gathering", "livestock laborer"],
    ["Fire Sprinkler Helper", null],
    ["Edger Operator", null],
    ["Traffic Cone Worker", null],
    // O*NET's own titles of other occupations (deno task audit:readings: every O*NET title a row
    // reads).
    ["Oil Field Worker", null],
    ["Field Laborer", null],
    ["Leaf Conditioner Helper", null],
    ["Bunker Worker", null],
    ["Machine Pecan Picker", null],
    ["Potato Chip Sorter", null],
    ["Machine Scallop Cutter", null],
    // A crop's stringer, thrower, tosser or tier works it by hand; so do crops O*NET names in no
    // title (hemp, squash, sweet potatoes).
    ["Tobacco Stringer", "crop farmworker"],
    ["Melon Thrower", "crop farmworker"],
    ["Tomato Staker & Tier", "crop farmworker"],
    ["Hemp Field Worker - Bucking & Drying", "crop farmworker"],
    ["Field Hand - Squash & Zucchini", "crop farmworker"],
    ["Cane Packer", null],
    ["Asparagus Buncher", null],
    // A vessel's engineer runs its engines; one who designs ships, or a dredge's, is not one.
    ["Engineer, chief -- merchant vessel", "ship engineer"],
    ["Fishing Boat Engineer", "ship engineer"],
    ["Assistant Engineer (Tugboat)", "ship engineer"],
    ["Naval Architect / Ship Design Engineer", null],
    ["Software Engineer - Ship Systems", null],
    ["Dredge Boat Engineer", null],
    ["Ships Equipment Engineer", null],
  ];
  for (const [title, reading] of readings) assert.equal(settingReading(title), reading, title);
});

Deno.test("cleanTitle keeps a first part that names a role over a setting of rarer words", () => {
  // Both parts end in words that head titles; the setting's words are rarer.
  const score = (segment: string) =>
    ({ "line cook": 105, "seafood shack": 118, "night shift": 20, "head cashier": 104 })[
      segment
    ] ?? 0;
  assert.deepEqual(cleanTitle("Line Cook - Seafood Shack", score), {
    text: "line cook",
    rest: "seafood shack",
  });
  // A first part that names no role still gives way.
  assert.equal(cleanTitle("Night Shift - Head Cashier", score).text, "head cashier");
  // A later part that outscores the first by more than the bonus still wins.
  const title = (segment: string) => ({ "line cook": 105, "seafood line cook": 140 })[segment] ?? 0;
  assert.equal(cleanTitle("Line Cook - Seafood Line Cook", title).text, "seafood line cook");
});

Deno.test("taxPractice: a firm's tax associate, staff or senior is a tax accountant", () => {
  assert.equal(taxPractice("tax", "Tax Senior"), "tax accountant");
  assert.equal(taxPractice("tax associate", "Tax Associate"), "tax accountant");
  assert.equal(
    taxPractice("international tax associate", "International Tax Senior Associate"),
    "international tax accountant",
  );
  assert.equal(taxPractice("tax", "Senior Associate, Tax"), "tax accountant");
  // No rank, another role, or the practice's leader: as written.
  assert.equal(taxPractice("tax", "Tax"), "tax");
  assert.equal(taxPractice("tax analyst", "Senior Tax Analyst"), "tax analyst");
  assert.equal(taxPractice("tax examiner", "Tax Examiner"), "tax examiner");
  assert.equal(taxPractice("tax", "Senior Director Tax"), "tax");
});

Deno.test("cleanTitle keeps the numbers that name a job (911, 411), drops the others, and reads EDP", () => {
  const none = () => 0;
  assert.equal(cleanTitle("911 Dispatcher", none).text, "911 dispatcher");
  assert.equal(cleanTitle("Operator, 911 -- county", none).text, "911 operator");
  assert.equal(cleanTitle("Dispatcher 2", none).text, "dispatcher");
  assert.equal(cleanTitle("Store 4112 Manager", none).text, "store manager");
  // A school's span of grades goes; a police dog stays.
  assert.equal(cleanTitle("K-12 Principal", none).text, "principal");
  assert.equal(cleanTitle("K-9 Handler", none).text, "k handler");
  // A period's abbreviation: electronic data processing.
  assert.equal(cleanTitle("EDP Manager", none).text, "electronic data processing manager");
});

Deno.test("cleanTitle drops a bracketed word that shortens the words before it, and a doctorate", () => {
  const cases: [string, string][] = [
    ["Farm Labor Contractor (FLC)", "farm labor contractor"],
    ["Crane Operator (CO) - Port", "crane operator"],
    // A bracket that is no shortening of them stays.
    ["Sawyer (Logging)", "sawyer logging"],
    ["Security Engineer (AppSec)", "security engineer appsec"],
    // A doctorate, however written; a Pharm D stays.
    ["Economist (Ph.D.)", "economist"],
    ["Research Scientist (Ph. D.)", "research scientist"],
    ["PhD Chemist", "chemist"],
    ["Pharm.D. Resident", "pharm d resident"],
  ];
  for (const [title, text] of cases) assert.equal(cleanTitle(title, () => 0).text, text, title);
});

Deno.test("cleanTitle puts an inverted title back in order before opening its brackets", () => {
  const cases: [string, string][] = [
    ["Operator, bottling machine (beverages)", "bottling machine operator beverages"],
    ["Principal, school (parochial)", "school principal parochial"],
    // An employer's title before a comma is left to titleBeforeComma (here no title: as before).
    ["Software Engineer, Machine Learning (Ads)", "machine learning ads software engineer"],
  ];
  for (const [title, text] of cases) assert.equal(cleanTitle(title, () => 0).text, text, title);
});

Deno.test("cleanTitle: an em dash joins parts, spaced or not, and 'dept.' is a department", () => {
  const score = (segment: string) =>
    ({ "sales clerk": 105, "department store": 110, "personnel department manager": 120 })[
      segment
    ] ?? 0;
  // A catalog's "Clerk, sales—dept. store": the role, then where it works.
  assert.deepEqual(cleanTitle("Clerk, sales—dept. store", score), {
    text: "sales clerk",
    rest: "department store",
  });
  // A typewriter's em dash, two hyphens between spaces, is one too.
  assert.deepEqual(cleanTitle("Clerk, sales -- dept. store", score), {
    text: "sales clerk",
    rest: "department store",
  });
  // A hyphen inside a word joins nothing.
  assert.equal(cleanTitle("Clerk-typist", score).text, "clerk typist");
  assert.equal(cleanTitle("Manager, personnel dept.", score).text, "personnel department manager");
});
