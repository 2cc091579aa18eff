import assert from "node:assert/strict";
import { spanishAsEnglish } from "./spanish.ts";

Deno.test("spanishAsEnglish: a Spanish title's parts read in English, head last", () => {
  const cases: [string, string][] = [
    ["Ayudante de Cocina", "kitchen helper"],
    ["Cocinero de Línea", "line cook"],
    ["Trabajador Agrícola General", "general farm worker"],
    ["JORNALERO AGRÍCOLA - COSECHA DE FRESA", "farm laborer - strawberry harvest"],
    ["Jardinero - Mantenimiento de Áreas Verdes", "gardener - grounds maintenance"],
    ["Pastor de Ovejas", "sheepherder"],
    ["Ordeñador - Lechería", "milker - dairy"],
    ["Mesero/Mesera", "waiter/waitress"],
    // Only the Spanish parts: an English part and an unknown word stay as written.
    ["Camarista - Hotel", "housekeeper - Hotel"],
    ["Farmworker / Trabajador Agrícola – Tomatoes", "Farmworker / farm worker – Tomatoes"],
    ["Pizcador de Chile", "chile picker"],
    // A word the lexicon lacks passes through, even one an object has as a property.
    ["Ayudante de Constructor", "constructor helper"],
    // Words the lexicon lacks keep their order among the modifiers.
    ["Operador tecnico back end", "back end technician operator"],
    ["Vendedor en linea", "online salesperson"],
    ["Mayordomo de Campo", "farm foreman"],
    ["Cuadrillero - Cuadrilla de Cosecha", "crew leader - harvest crew"],
    ["Pelador de Camarón", "shrimp peeler"],
    ["Techador", "roofer"],
    ["Cocinera - Campamento", "cook - camp"],
    ["Picadora de Jaiba", "crab picker"],
    ["Pescador - Barco Camaronero", "fisher - shrimp boat"],
    ["Apicultor Ayudante", "helper beekeeper"],
    ["Cortador de Espárrago", "asparagus cutter"],
    ["Caballerango - Hipódromo", "horse groom - racetrack"],
    ["Seleccionadora - Tomate", "sorter - tomato"],
    ["Cortador de Caña", "cane cutter"],
    ["Mozo de Cuadra", "stable hand"],
    ["Preparador de Alimentos", "food preparer"],
    ["Operador de Juegos Mecánicos", "amusement rides operator"],
    ["Trabajador de Feria", "carnival worker"], // a fair's (ranker 141)
    ["Mecánicos de Autos", "autos mechanics"],
    ["Camarera de Piso", "housekeeper"], // a hotel's room maid; a camarera alone waits tables
    ["Camarero - Restaurante", "waiter - restaurant"],
    ["Pintor de Brocha Gorda", "house painter"],
  ];
  for (const [title, english] of cases) assert.equal(spanishAsEnglish(title), english, title);
  // English titles with words Spanish shares stay as they are.
  const english = [
    "Pastor",
    "Senior Pastor - First Baptist",
    "General Manager",
    "Conductor",
    "Cook - El Pollo Loco",
    "Bodega Clerk",
    "Farm Worker - Madera, CA",
    "Line Cook",
    // A crop or a place word alone is no Spanish title ("UVA" is a university).
    "Medical Assistant - UVA Augusta Pediatrics",
    "Fresa Farms Packing Lead",
  ];
  for (const title of english) assert.equal(spanishAsEnglish(title), title, title);
});
