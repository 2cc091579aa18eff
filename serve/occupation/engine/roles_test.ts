/** Roles from the SOC structure, catalog word order and the parts of "A - B" titles. */
import assert from "node:assert/strict";
import { parseRole, roleClass, roleMaps } from "./roles.ts";
import { cleanTitle } from "./text.ts";

const occupations = [
  {
    onetCode: "47-1011.00",
    title: "First-Line Supervisors of Construction Trades and Extraction Workers",
  },
  { onetCode: "47-2031.00", title: "Carpenters" },
  { onetCode: "47-2181.00", title: "Roofers" },
  { onetCode: "47-3016.00", title: "Helpers--Roofers" },
  { onetCode: "47-3019.00", title: "Helpers, Construction Trades, All Other" },
  {
    onetCode: "37-1011.00",
    title: "First-Line Supervisors of Housekeeping and Janitorial Workers",
  },
  {
    onetCode: "37-1012.00",
    title: "First-Line Supervisors of Landscaping, Lawn Service, and Groundskeeping Workers",
  },
  {
    onetCode: "37-2011.00",
    title: "Janitors and Cleaners, Except Maids and Housekeeping Cleaners",
  },
  { onetCode: "37-2012.00", title: "Maids and Housekeeping Cleaners" },
  { onetCode: "37-2021.00", title: "Pest Control Workers" },
  { onetCode: "37-3011.00", title: "Landscaping and Groundskeeping Workers" },
  { onetCode: "51-1011.00", title: "First-Line Supervisors of Production and Operating Workers" },
  { onetCode: "51-3011.00", title: "Bakers" },
  { onetCode: "11-9051.00", title: "Food Service Managers" },
];
const titles = [
  { onetCode: "47-2181.00", title: "Roofer" },
  { onetCode: "37-3011.00", title: "Lawn Service Worker" },
];

Deno.test("roleClass reads supervisors, helpers and managers from codes and titles", () => {
  assert.equal(roleClass("51-1011.00", occupations[11].title), "supervisor");
  assert.equal(roleClass("47-3016.00", "Helpers--Roofers"), "helper");
  assert.equal(roleClass("11-9051.00", "Food Service Managers"), "manager");
  assert.equal(roleClass("51-3011.00", "Bakers"), "worker");
});

Deno.test("roleMaps assigns each worker its supervisor and helper from the SOC structure", () => {
  const maps = roleMaps(occupations, titles);
  // One supervisor in the major group: it is everyone's.
  assert.equal(maps.supervisorOf.get("51-3011.00"), "51-1011.00");
  assert.equal(maps.supervisorOf.get("47-2181.00"), "47-1011.00");
  // Several: shared title words decide ("landscaping", "housekeeping"), else the minor group.
  assert.equal(maps.supervisorOf.get("37-3011.00"), "37-1012.00");
  assert.equal(maps.supervisorOf.get("37-2012.00"), "37-1011.00");
  assert.equal(maps.supervisorOf.get("37-2021.00"), "37-1011.00");
  // Helpers: the helper of the trade, else the catch-all; none outside their major groups.
  assert.equal(maps.helperOf.get("47-2181.00"), "47-3016.00");
  assert.equal(maps.helperOf.get("47-2031.00"), "47-3019.00");
  assert.equal(maps.helperOf.get("51-3011.00"), undefined);
  // Supervisors, helpers and managers are no one's workers.
  assert.equal(maps.supervisorOf.get("47-3016.00"), undefined);
  assert.equal(maps.supervisorOf.get("11-9051.00"), undefined);
});

Deno.test("a supervisor's domain is in all its titles, not its primary title alone", () => {
  const occupations = [
    {
      onetCode: "53-1043.00",
      title: "First-Line Supervisors of Material-Moving Machine and Vehicle Operators",
    },
    {
      onetCode: "53-1049.00",
      title: "First-Line Supervisors of Transportation Workers, All Other",
    },
    { onetCode: "53-1044.00", title: "First-Line Supervisors of Passenger Attendants" },
    { onetCode: "53-7051.00", title: "Industrial Truck and Tractor Operators" },
    { onetCode: "53-2031.00", title: "Flight Attendants" },
  ];
  const titles = [
    { onetCode: "53-1043.00", title: "Forklift Supervisor" },
    { onetCode: "53-1049.00", title: "Transportation Coordinator" },
    { onetCode: "53-1044.00", title: "Flight Attendant Supervisor" },
    { onetCode: "53-7051.00", title: "Forklift Operator" },
    { onetCode: "53-7051.00", title: "Tractor Driver" },
  ];
  const maps = roleMaps(occupations, titles);
  // Their primary titles share no word with the workers' titles; "supervisor" and
  // "coordinator" are no domain's words.
  assert.equal(maps.supervisorOf.get("53-7051.00"), "53-1043.00");
  assert.equal(maps.supervisorOf.get("53-2031.00"), "53-1044.00");
});

Deno.test("parseRole finds the hierarchy word anywhere and restores catalog order", () => {
  assert.deepEqual(parseRole("supervisor bakery"), {
    role: "supervisor",
    domain: "bakery",
    natural: "bakery supervisor",
  });
  assert.equal(parseRole("roofer helper").role, "helper");
  assert.equal(parseRole("helper roofer").natural, "roofer helper");
  assert.equal(parseRole("apprentice electrician").natural, "apprentice electrician");
  assert.equal(parseRole("baker").role, "worker");
  assert.equal(parseRole("baker exc supervising").natural, "baker");
});

Deno.test("parseRole reads a crew's lead, leader or boss as a supervisor", () => {
  assert.deepEqual(parseRole("irrigation crew lead"), {
    role: "supervisor",
    domain: "irrigation crew",
    natural: "irrigation crew lead",
  });
  assert.equal(parseRole("vegetable harvest crew leader").role, "supervisor");
  assert.equal(parseRole("citrus picking crew boss").role, "supervisor");
  // A lead of anything else may be the senior worker ("Lead Cook"); a crew alone is its workers.
  assert.equal(parseRole("lead cook").role, "lead");
  assert.equal(parseRole("harvest crew").role, "worker");
  assert.equal(parseRole("chief cook").role, "worker");
  // O*NET's crew chiefs are aircrew as often as supervisors ("Tiltrotor Crew Chief").
  assert.equal(parseRole("tiltrotor crew chief").role, "worker");
});

Deno.test("cleanTitle reads catalog inversion, exclusions and keeps qualifiers apart", () => {
  const flat = () => 0;
  assert.equal(cleanTitle("Operator, Bottling Machine", flat).text, "bottling machine operator");
  assert.equal(cleanTitle("Nurse, Registered", flat).text, "registered nurse");
  assert.equal(cleanTitle("Bakers, exc supervising", flat).text, "bakers");
  assert.equal(cleanTitle("Nurse, Dallas, TX", flat).text, "nurse");
  const cook = (segment: string) => segment.includes("cook") ? 200 : 10;
  assert.deepEqual(cleanTitle("Line Cook - Seafood Restaurant", cook), {
    text: "line cook",
    rest: "seafood restaurant",
  });
});
