/**
 * Seeded generator of synthetic job-posting feeds (schema.org `JobPosting` NDJSON) for
 * benchmarks and tests of the market build. Library and CLI:
 *
 *   deno task gen:postings --count 100000 --seed 42 --out /tmp/syn.ndjson [--end 2026-05-05] [--days 120]
 *
 * Same seed, count, end and days give byte-identical output: a seeded xoshiro128** drives
 * everything (no Math.random, no clock). Each posting's content comes from its own stream,
 * seeded from (seed, index), and its kind (original, repost, bad) from a hash of the same, so
 * a repost recomputes its original instead of keeping it: memory stays bounded (one index per
 * day, plus the late reposts of the last 80 days) whatever the count.
 *
 * Distributions (targets; `synthetic_test.ts` checks them on 20k postings):
 * - Dates: datePosted covers `days` days ending at `end` (both included), in non-decreasing
 *   order. Day weights: Mon 1.15, Tue 1.2, Wed 1.15, Thu 1.1, Fri 0.95, Sat 0.3, Sun 0.35,
 *   times a linear trend from 1.0 on the first day to 1.3 on the last. validThrough: 70% at
 *   30-60 days after datePosted, 8% at 7-29, 5% at 61-90, 17% absent; postings from the early
 *   part of the span are therefore already expired at `end`.
 * - Families and titles: 14 title families (software 11%, IT 4, data 5, nursing 9,
 *   healthcare 7, retail 8, warehouse 9, sales 9, finance 7, admin 7, trades 7, teaching 5,
 *   service 7, marketing 5) holding 338 base titles, Zipf (s = 1) within a family, each with an
 *   O*NET-SOC code checked against O*NET 30.1. Seniority by
 *   family kind (professional: Senior 14%, Sr. 6, Junior 4, Lead 4, II 4, ...; clinical and
 *   hourly: a few percent), employment suffixes (" (Contract)", " - Part Time"), remote and
 *   hybrid markers, and noise on ~8.5% of titles (ALL CAPS, "(Req #48213)", " - Austin, TX",
 *   "URGENT: ", stray whitespace).
 * - employmentType: FULL_TIME, PART_TIME, CONTRACTOR, TEMPORARY, INTERN weighted per family
 *   (retail and service about half part-time; software 13% contract, 5% intern); absent on 4%.
 *   occupationalCategory: the title's O*NET-SOC code on 30%.
 * - Employers: 2,000 names from word lists over 9 sectors, fixed whatever the seed. A posting
 *   takes an employer of its family's sectors (80%) or any sector (20%), Zipf (s = 0.5) in a
 *   sector; 0.5% are "Confidential".
 * - Countries: US 62%, GB 9, DE 5, CA 5, IN 4, NL 2, FR 2, AU 2, IE 1.2, ES 1, PL 1, BR 0.9,
 *   SE, CH, SG, MX 0.8, JP 0.7, IT, BE 0.5; cities Zipf (s = 0.7) within a country (110 in the
 *   US, "Portland, ME" and "Cambridge, MA" among them). Spelling of
 *   addressCountry: ~83% ISO alpha-2, ~1% lower-case alpha-2, ~10% names ("United Kingdom",
 *   "UK", "Deutschland"), ~3% alpha-3 ("USA", "DEU"), ~2% a US state name in addressRegion
 *   with addressCountry absent, ~1% garbage ("Atlantis", "N/A") with no region or locality.
 * - Work mode: 18% fully remote, per-family rates (software, data, marketing high; nursing,
 *   retail, warehouse, trades near zero) scaled to that total. Half of the remote postings say
 *   so with jobLocationType "TELECOMMUTE" (with applicantLocationRequirements on most), the
 *   other half only with phrases in the title (40%) and description ("Remote", "100% remote",
 *   "fully remote", "work from home"). 8% hybrid ("hybrid", "3 days in office"), never with
 *   the word remote. 5% of on-site postings carry a negation ("not remote", "no remote work",
 *   "Remote work is not available"), a trap for the remote detector. Nothing else says remote.
 * - Descriptions: 300-2,000 characters (log-normal around 850) from sentence templates, prose
 *   or bulleted; 2-12 technologies and skills per posting drawn per family with popularity
 *   weights, in common posting spellings with aliases ("Postgres", "k8s", "JS", "Golang",
 *   "MS Excel", "PowerBI"); a subset of 0-6 of them in `skills` (absent when empty).
 * - Duplicates: 8% of postings repost an earlier one (same title, employer, location and
 *   description; datePosted 1-25 days later, mostly soon after; new identifier), 1% repost
 *   one 41-80 days later that was never reposted before (a new job under a 30-day dedup
 *   window). Rates are corrected for the first days of the span, which have nothing to repost.
 *   Independent postings also share title, employer and location by chance, more often as the
 *   count grows (within 30 days: 0.05% of 20k postings, 0.2% of 100k, 1.4% of 1M).
 * - Bad records, 0.6%: half with the title absent or blank, half with an unparseable
 *   datePosted ("sometime soon", "2026-13-45", "2026-02-30") and no validThrough. Every line
 *   is valid JSON.
 */
import { parseArgs } from "node:util";
import { usStateByCode } from "../../serve/text/us_states.ts";

/** Options of a synthetic feed. */
export interface SyntheticOptions {
  count: number;
  seed: number;
  /** Last posting day, YYYY-MM-DD (default 2026-05-05). */
  end?: string;
  /** Days in the span, ending at `end` (default 120). */
  days?: number;
}

const DEFAULT_END = "2026-05-05";
const DEFAULT_DAYS = 120;
const MAX_DAYS = 3660;
const BAD_RATE = 0.006;
const REPOST_RATE = 0.08;
const LATE_REPOST_RATE = 0.01;
const LATE_POOL = 0.3;

// ---------------------------------------------------------------------------------------
// Random numbers

function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** xoshiro128** seeded through splitmix32 from (seed, stream). */
class Rng {
  a = 0;
  b = 0;
  c = 0;
  d = 0;
  constructor(seed: number, stream: number) {
    this.reseed(seed, stream);
  }
  reseed(seed: number, stream: number): void {
    const hi = Math.floor(seed / 4294967296) >>> 0;
    let s = mix32((seed >>> 0) ^ mix32(hi ^ mix32((stream ^ 0x9e3779b9) >>> 0)));
    const next = () => {
      s = (s + 0x9e3779b9) | 0;
      let z = Math.imul(s ^ (s >>> 16), 0x21f0aaad);
      z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
      return (z ^ (z >>> 15)) >>> 0;
    };
    this.a = next(), this.b = next(), this.c = next(), this.d = next() || 1;
  }
  next(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a, this.d ^= this.b, this.b ^= this.c, this.a ^= this.d, this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }
  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }
  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Draws items by weight through a binary search over the cumulative weights. */
class Weighted<T> {
  private readonly cdf: Float64Array;
  constructor(readonly items: readonly T[], weights: readonly number[]) {
    this.cdf = new Float64Array(items.length);
    const total = weights.reduce((sum, w) => sum + w, 0);
    let sum = 0;
    for (let i = 0; i < items.length; i++) this.cdf[i] = (sum += weights[i]) / total;
    this.cdf[items.length - 1] = 1;
  }
  pick(rng: Rng): T {
    const x = rng.float();
    let lo = 0, hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo];
  }
}

const zipf = (n: number, s: number) => Array.from({ length: n }, (_, i) => (i + 1) ** -s);
const list = (s: string) => s.split(";");

// ---------------------------------------------------------------------------------------
// Reference data: families, titles, terms

type Levels = "pro" | "clinical" | "hourly";
type Pay = [low: number, high: number, unit: "year" | "hour"];

interface FamilySpec {
  name: string;
  weight: number;
  levels: Levels;
  sectors: string;
  remote: number;
  hybrid: number;
  /** Weights of FULL_TIME, PART_TIME, CONTRACTOR, TEMPORARY, INTERN. */
  employment: number[];
  terms: [min: number, max: number, techShare: number];
  pay: Pay;
  /** "Title=O*NET-SOC code" by popularity. */
  titles: string;
  /** Technologies by popularity; "|" separates a name from its aliases. */
  tech: string;
  skills: string;
  duties: string;
}

// deno-fmt-ignore
const FAMILY_SPECS: FamilySpec[] = [
  { name: "software", weight: 11, levels: "pro", sectors: "tech", remote: 0.42, hybrid: 0.2,
    employment: [80, 1, 13, 1, 5], terms: [4, 12, 0.7], pay: [95000, 185000, "year"],
    titles: "Software Engineer=15-1252.00;Software Developer=15-1252.00;Full Stack Developer=15-1252.00;Front End Developer=15-1254.00;Backend Engineer=15-1252.00;DevOps Engineer=15-1252.00;Web Developer=15-1254.00;Site Reliability Engineer=15-1252.00;Java Developer=15-1251.00;Cloud Engineer=15-1299.08;QA Engineer=15-1253.00;Python Developer=15-1252.00;iOS Developer=15-1252.00;Android Developer=15-1252.00;Solutions Architect=15-1299.08;Engineering Manager=11-3021.00;.NET Developer=15-1252.00;Software Test Engineer=15-1253.00;QA Analyst=15-1253.00;Mobile Developer=15-1252.00;Platform Engineer=15-1252.00;Systems Engineer=15-1299.08;Embedded Software Engineer=15-1252.00;Salesforce Developer=15-1254.00;Software Architect=15-1252.00;UI Developer=15-1254.00;Game Developer=15-1252.00",
    tech: "Python;SQL;Java;JavaScript|JS|Javascript;AWS|Amazon Web Services;TypeScript|TS;React|React.js|ReactJS;Kubernetes|k8s|K8s;Docker;Go|Golang;Node.js|Node|NodeJS;PostgreSQL|Postgres|postgres;C#;Git|GitHub;Azure|Microsoft Azure;Linux;CI/CD;Terraform;GCP|Google Cloud;C++;REST APIs|RESTful APIs;Kafka|Apache Kafka;Redis;MongoDB|Mongo;Spring Boot|Spring;Angular;.NET|.NET Core;GraphQL;MySQL;Vue.js|Vue;Django;Kotlin;Swift;Jenkins;Rust;Ruby on Rails|Rails;Elasticsearch;Selenium;Cypress;Jira",
    skills: "mentoring junior engineers;code review;system design;strong written communication;problem solving;critical thinking;agile;unit testing;distributed systems;debugging;microservices;test-driven development;collaboration",
    duties: "design, build and ship backend services used by millions of customers;write clean, well-tested code and review the code of your teammates;own features end to end, from design document to production monitoring;improve the reliability and performance of our platform;work with product managers and designers to scope new features;participate in an on-call rotation and help resolve production incidents;break down large projects into small, shippable increments" },
  { name: "it", weight: 4, levels: "pro", sectors: "tech;services;health", remote: 0.22, hybrid: 0.15,
    employment: [78, 3, 14, 3, 2], terms: [3, 10, 0.6], pay: [55000, 125000, "year"],
    titles: "IT Support Specialist=15-1232.00;Help Desk Technician=15-1232.00;Systems Administrator=15-1244.00;Network Engineer=15-1241.00;Desktop Support Technician=15-1232.00;Cybersecurity Analyst=15-1212.00;IT Manager=11-3021.00;Network Administrator=15-1244.00;Security Engineer=15-1299.05;Information Security Analyst=15-1212.00;IT Project Manager=15-1299.09;Help Desk Analyst=15-1232.00;Database Administrator=15-1242.00;IT Technician=15-1232.00;Service Desk Analyst=15-1232.00;SOC Analyst=15-1212.00;Network Technician=15-1231.00;Penetration Tester=15-1299.04;IT Specialist=15-1232.00;Cloud Administrator=15-1244.00",
    tech: "Active Directory|AD;Windows|Windows 10|Windows 11;Office 365|Microsoft 365|O365;Azure|Microsoft Azure;ServiceNow;Linux;Cisco;PowerShell;AWS;VMware;TCP/IP;DNS;Intune;Splunk;SIEM;Okta;Jamf;Palo Alto;Fortinet;CrowdStrike;Wireshark;Python;Bash;Jira",
    skills: "troubleshooting;customer service;strong written communication;ticket management;incident response;documentation;attention to detail;problem solving;CompTIA A+ certification;CCNA;CISSP",
    duties: "resolve hardware, software and network issues for employees on site and by phone;administer user accounts, permissions and devices;monitor our networks and systems for security events;maintain documentation of systems, procedures and known issues;patch and upgrade servers within agreed maintenance windows;support new-hire onboarding and equipment setup" },
  { name: "data", weight: 5, levels: "pro", sectors: "tech;finance;health", remote: 0.42, hybrid: 0.2,
    employment: [80, 1, 12, 1, 6], terms: [4, 12, 0.65], pay: [85000, 175000, "year"],
    titles: "Data Engineer=15-1243.00;Data Scientist=15-2051.00;Data Analyst=15-2051.01;Business Analyst=13-1111.00;Machine Learning Engineer=15-2051.00;Business Intelligence Analyst=15-2051.01;Analytics Engineer=15-1243.00;Data Architect=15-1243.00;BI Developer=15-2051.01;Reporting Analyst=15-2051.01;AI Engineer=15-1221.00;Quantitative Analyst=13-2099.01;Statistician=15-2041.00;Research Scientist=15-1221.00;Data Analytics Manager=15-2051.00;Database Developer=15-1242.00;Operations Research Analyst=15-2031.00;Data Governance Analyst=15-1243.00;Biostatistician=15-2041.01;Applied Scientist=15-1221.00",
    tech: "SQL;Python;Tableau;Power BI|PowerBI;Excel|MS Excel|Microsoft Excel;Spark|Apache Spark|PySpark;Snowflake;AWS;dbt;Airflow|Apache Airflow;Databricks;R;pandas;Looker;BigQuery;scikit-learn|sklearn;TensorFlow;PyTorch;Redshift;PostgreSQL|Postgres;Kafka;Hadoop;SAS;Jupyter;Git;Docker;LLMs",
    skills: "data analysis;data visualization;statistical modeling;machine learning;critical thinking;strong written communication;stakeholder management;data modeling;ETL;A/B testing;problem solving;mentoring junior engineers",
    duties: "build and maintain the data pipelines that feed our reporting;turn ambiguous business questions into clear analyses and recommendations;design dashboards that leadership uses every week;develop, validate and deploy statistical and machine learning models;partner with engineering to improve data quality and lineage;present findings to non-technical audiences" },
  { name: "nursing", weight: 9, levels: "clinical", sectors: "health", remote: 0.015, hybrid: 0.005,
    employment: [70, 20, 6, 4, 0], terms: [2, 8, 0.25], pay: [38, 62, "hour"],
    titles: "Registered Nurse=29-1141.00;RN=29-1141.00;Certified Nursing Assistant=31-1131.00;Licensed Practical Nurse=29-2061.00;Travel Nurse=29-1141.00;LPN=29-2061.00;CNA=31-1131.00;ICU Registered Nurse=29-1141.01;Nurse Practitioner=29-1171.00;Emergency Room Nurse=29-1141.01;Med Surg RN=29-1141.00;Charge Nurse=29-1141.00;Home Health Nurse=29-1141.00;Labor and Delivery Nurse=29-1141.00;Operating Room Nurse=29-1141.00;Telemetry RN=29-1141.00;Case Manager RN=29-1141.00;Nurse Manager=11-9111.00;Critical Care Nurse=29-1141.03;Pediatric Nurse=29-1141.00;Psychiatric Nurse=29-1141.02;Hospice Nurse=29-1141.00;School Nurse=29-1141.00;Director of Nursing=11-9111.00;Clinical Nurse Educator=21-1091.00;Nurse Anesthetist=29-1151.00",
    tech: "Epic|EPIC|Epic EHR;EHR|electronic health records;Cerner;Meditech;Pyxis;Microsoft Office|MS Office;Omnicell",
    skills: "patient care;BLS certification|BLS;ACLS certification|ACLS;medication administration;critical thinking;compassion;IV therapy;wound care;patient education;care planning;infection control;charting;bilingual Spanish;time management;PALS",
    duties: "assess, plan and deliver patient care on a busy medical-surgical unit;administer medications and treatments as ordered by providers;document care accurately in the electronic health record;educate patients and families on diagnoses and discharge plans;collaborate with physicians, therapists and case managers;supervise nursing assistants and delegate tasks safely" },
  { name: "healthcare", weight: 7, levels: "clinical", sectors: "health", remote: 0.05, hybrid: 0.02,
    employment: [68, 25, 3, 4, 0], terms: [2, 8, 0.3], pay: [17, 45, "hour"],
    titles: "Medical Assistant=31-9092.00;Pharmacy Technician=29-2052.00;Patient Care Technician=31-1131.00;Caregiver=31-1122.00;Home Health Aide=31-1121.00;Physical Therapist=29-1123.00;Phlebotomist=31-9097.00;Dental Assistant=31-9091.00;Medical Receptionist=43-6013.00;Occupational Therapist=29-1122.00;Pharmacist=29-1051.00;Radiologic Technologist=29-2034.00;Medical Coder=29-2072.00;Respiratory Therapist=29-1126.00;Dental Hygienist=29-1292.00;Physician Assistant=29-1071.00;Speech Language Pathologist=29-1127.00;Medical Laboratory Scientist=29-2011.00;Surgical Technologist=29-2055.00;Behavioral Health Technician=29-2053.00;EMT=29-2042.00;Paramedic=29-2043.00;Physician=29-1229.00;Sonographer=29-2032.00;Veterinary Technician=29-2056.00;Physical Therapist Assistant=31-2021.00;Optician=29-2081.00",
    tech: "Epic;EHR;Cerner;ICD-10;Microsoft Office|MS Office;CPT coding;eClinicalWorks;Dentrix;athenahealth;PACS",
    skills: "patient care;customer service;HIPAA compliance;vital signs;CPR certification;attention to detail;medical terminology;scheduling;compassion;bilingual Spanish;lift up to 50 pounds;teamwork;phlebotomy",
    duties: "room patients, take vital signs and prepare them for examination;schedule appointments and verify insurance information;prepare and dispense prescriptions accurately;assist clients with daily living activities in their homes;perform diagnostic procedures following clinical protocols;keep treatment areas clean, stocked and compliant" },
  { name: "retail", weight: 8, levels: "hourly", sectors: "retail", remote: 0.005, hybrid: 0,
    employment: [40, 52, 0, 8, 0], terms: [2, 6, 0.25], pay: [14, 19, "hour"],
    titles: "Retail Sales Associate=41-2031.00;Cashier=41-2011.00;Sales Associate=41-2031.00;Store Manager=41-1011.00;Assistant Store Manager=41-1011.00;Shift Supervisor=41-1011.00;Stock Associate=53-7065.00;Store Associate=41-2031.00;Customer Service Associate=43-4051.00;Key Holder=41-1011.00;Merchandiser=27-1026.00;Retail Team Member=41-2031.00;Department Manager=41-1011.00;Overnight Stocker=53-7065.00;Barista=35-3023.01;Grocery Clerk=53-7065.00;Deli Clerk=35-2021.00;Produce Associate=53-7065.00;Loss Prevention Officer=33-9099.02;Visual Merchandiser=27-1026.00;Retail Store Manager=41-1011.00;Pharmacy Cashier=41-2011.00;District Manager=11-1021.00",
    tech: "POS systems|POS|point-of-sale systems;cash register;handheld scanners;Microsoft Office;MS Excel|Excel;inventory management software;Square",
    skills: "customer service;cash handling;merchandising;stocking shelves;lift up to 50 pounds;teamwork;bilingual Spanish;upselling;inventory management;flexible schedule;opening and closing procedures;friendly attitude;loss prevention",
    duties: "greet customers and help them find what they need;operate the register and handle cash accurately;restock shelves and keep the sales floor clean and organized;process deliveries and help with inventory counts;open and close the store following company procedures;coach and schedule a team of associates" },
  { name: "warehouse", weight: 9, levels: "hourly", sectors: "logistics", remote: 0.005, hybrid: 0.005,
    employment: [62, 15, 3, 20, 0], terms: [2, 6, 0.3], pay: [16, 24, "hour"],
    titles: "Warehouse Associate=53-7062.00;Delivery Driver=53-3033.00;Forklift Operator=53-7051.00;Material Handler=53-7062.00;Warehouse Worker=53-7062.00;CDL-A Truck Driver=53-3032.00;Package Handler=53-7062.00;Order Picker=53-7065.00;Picker Packer=53-7064.00;Truck Driver=53-3032.00;Production Worker=51-9199.00;Machine Operator=51-9199.00;Shipping and Receiving Clerk=43-5071.00;Assembler=51-2092.00;Inventory Specialist=43-5071.00;Warehouse Supervisor=53-1042.00;Fulfillment Associate=53-7065.00;Logistics Coordinator=13-1081.00;Dispatcher=43-5032.00;Warehouse Manager=11-3071.00;Distribution Center Associate=53-7062.00;Supply Chain Analyst=13-1081.02;Courier=43-5021.00;Logistics Manager=11-3071.00",
    tech: "RF scanners|RF scanner;forklift|forklifts;pallet jack;WMS|warehouse management system;SAP;MS Excel|Excel;ELD;reach truck",
    skills: "lift up to 50 pounds|lift up to 50 lbs;safety procedures;attention to detail;teamwork;forklift certification;clean driving record;CDL-A license|Class A CDL;standing for long periods;inventory control;time management;OSHA compliance;shipping and receiving;bilingual Spanish",
    duties: "pick, pack and ship customer orders accurately and on time;load and unload trucks and stage freight for outbound routes;operate material-handling equipment safely;deliver packages along an assigned route and confirm delivery;count inventory and report discrepancies;keep work areas clean and follow all safety rules" },
  { name: "sales", weight: 9, levels: "pro", sectors: "tech;services;finance;retail", remote: 0.25, hybrid: 0.1,
    employment: [88, 4, 4, 1, 3], terms: [3, 8, 0.35], pay: [55000, 140000, "year"],
    titles: "Sales Representative=41-4012.00;Account Executive=41-3091.00;Account Manager=41-3091.00;Sales Manager=11-2022.00;Inside Sales Representative=41-4012.00;Outside Sales Representative=41-4012.00;Sales Development Representative=41-3091.00;Business Development Manager=11-2021.00;Customer Success Manager=41-3091.00;Business Development Representative=41-3091.00;Territory Sales Manager=11-2022.00;Insurance Agent=41-3021.00;Regional Sales Manager=11-2022.00;Real Estate Agent=41-9022.00;Sales Engineer=41-9031.00;Key Account Manager=11-2022.00;Enterprise Account Executive=41-3091.00;Pharmaceutical Sales Representative=41-4011.00;Medical Device Sales Representative=41-4011.00;Solutions Consultant=41-9031.00;Inside Sales Manager=11-2022.00;Channel Sales Manager=11-2022.00;Solar Sales Representative=41-4011.07",
    tech: "Salesforce|SFDC;HubSpot;Excel|MS Excel|Microsoft Excel;LinkedIn Sales Navigator;Outreach;Gong;ZoomInfo;Zoom;Microsoft Dynamics|MS Dynamics;CRM",
    skills: "negotiation;prospecting;relationship building;customer service;cold calling;strong written communication;presentation skills;pipeline management;closing deals;account management;consultative selling;quota attainment;bilingual Spanish",
    duties: "build a pipeline of qualified prospects through calls, email and events;run discovery calls and tailored product demonstrations;negotiate contracts and close new business;grow existing accounts and manage renewals;keep accurate notes and forecasts in the CRM;work with marketing on campaigns for your territory" },
  { name: "finance", weight: 7, levels: "pro", sectors: "finance;services", remote: 0.22, hybrid: 0.18,
    employment: [85, 4, 6, 3, 2], terms: [3, 9, 0.45], pay: [55000, 140000, "year"],
    titles: "Staff Accountant=13-2011.00;Accountant=13-2011.00;Financial Analyst=13-2051.00;Accounts Payable Specialist=43-3031.00;Bookkeeper=43-3031.00;Controller=11-3031.01;Accounting Manager=11-3031.00;Payroll Specialist=43-3051.00;Bank Teller=43-3071.00;Accounts Receivable Specialist=43-3031.00;Tax Accountant=13-2011.00;Financial Advisor=13-2052.00;Auditor=13-2011.00;Loan Officer=13-2072.00;Personal Banker=41-3031.00;Underwriter=13-2053.00;Claims Adjuster=13-1031.00;Internal Auditor=13-2011.00;Credit Analyst=13-2041.00;FP&A Analyst=13-2051.00;Compliance Analyst=13-1041.00;Mortgage Loan Officer=13-2072.00;Finance Manager=11-3031.00;Billing Specialist=43-3021.00;Risk Analyst=13-2054.00;Investment Analyst=13-2051.00;Treasury Analyst=13-2051.00;Cost Accountant=13-2011.00;Actuary=15-2011.00",
    tech: "Excel|MS Excel|Microsoft Excel|advanced Excel;QuickBooks;SAP;Oracle|Oracle Financials;NetSuite;Power BI;SQL;Workday;Tableau;ADP;Bloomberg;Hyperion;Sage Intacct;VBA",
    skills: "GAAP;account reconciliation|reconciliations;attention to detail;financial modeling;data analysis;budgeting;forecasting;accounts payable;audit;critical thinking;strong written communication;payroll processing;risk assessment;CPA",
    duties: "prepare journal entries and monthly account reconciliations;support the month-end and year-end close;build financial models, budgets and forecasts;process invoices, payments and expense reports;assist with internal and external audits;analyze variances and explain them to business partners" },
  { name: "admin", weight: 7, levels: "pro", sectors: "services;health;finance;education", remote: 0.12, hybrid: 0.12,
    employment: [72, 14, 4, 8, 2], terms: [2, 8, 0.4], pay: [40000, 82000, "year"],
    titles: "Administrative Assistant=43-6014.00;Receptionist=43-4171.00;Executive Assistant=43-6011.00;Office Manager=43-1011.00;Project Manager=13-1082.00;Operations Manager=11-1021.00;Recruiter=13-1071.00;Office Assistant=43-9061.00;Front Desk Receptionist=43-4171.00;Data Entry Clerk=43-9021.00;HR Generalist=13-1071.00;Project Coordinator=13-1082.00;Paralegal=23-2011.00;Program Manager=13-1082.00;Human Resources Manager=11-3121.00;Talent Acquisition Specialist=13-1071.00;Legal Assistant=23-2011.00;HR Coordinator=13-1071.00;Office Administrator=43-6014.00;Administrative Coordinator=43-6014.00;Procurement Specialist=13-1023.00;Buyer=13-1023.00;Records Clerk=43-4071.00;Scheduler=43-6014.00",
    tech: "Microsoft Office|MS Office;Excel|MS Excel;Outlook;Word|MS Word;PowerPoint;Google Workspace|G Suite;Workday;ADP;Zoom;Slack;SAP;Salesforce;Greenhouse;Clio",
    skills: "organization;strong written communication;scheduling;calendar management;customer service;data entry;multitasking;attention to detail;confidentiality;typing 50 WPM;record keeping;travel coordination;recruiting;onboarding;bilingual Spanish",
    duties: "manage calendars, meetings and travel for a busy leadership team;answer phones and greet visitors at the front desk;maintain files, records and office supplies;coordinate project schedules, budgets and status reports;source, screen and schedule candidates for open roles;prepare correspondence, reports and presentations" },
  { name: "trades", weight: 7, levels: "hourly", sectors: "construction", remote: 0.005, hybrid: 0.005,
    employment: [85, 3, 7, 5, 0], terms: [2, 7, 0.3], pay: [20, 42, "hour"],
    titles: "Maintenance Technician=49-9071.00;Electrician=47-2111.00;General Laborer=47-2061.00;HVAC Technician=49-9021.00;Janitor=37-2011.00;Welder=51-4121.00;Custodian=37-2011.00;Carpenter=47-2031.00;Plumber=47-2152.00;CNC Machinist=51-4041.00;Maintenance Mechanic=49-9041.00;Construction Laborer=47-2061.00;Automotive Technician=49-3023.00;Diesel Mechanic=49-3031.00;Landscaper=37-3011.00;Journeyman Electrician=47-2111.00;Machinist=51-4041.00;Facilities Technician=49-9071.00;Painter=47-2141.00;Construction Project Manager=11-9021.00;Field Service Technician=49-9071.00;Construction Superintendent=11-9021.00;Heavy Equipment Operator=47-2073.00;Auto Mechanic=49-3023.00;Industrial Electrician=47-2111.00;Groundskeeper=37-3011.00;Roofer=47-2181.00;Pipefitter=47-2152.00;Solar Installer=47-2231.00;CNC Operator=51-9161.00",
    tech: "hand and power tools;multimeter;PLC|PLCs;AutoCAD;CNC;MIG welding;blueprints;CMMS;TIG welding;HVAC systems;Procore;Mastercam;Microsoft Excel",
    skills: "troubleshooting;blueprint reading;lift up to 50 pounds;valid driver's license;OSHA 10|OSHA 30;preventive maintenance;safety procedures;electrical troubleshooting;teamwork;journeyman license;EPA certification;work at heights;bilingual Spanish",
    duties: "perform preventive maintenance and repairs on equipment and buildings;install and troubleshoot electrical, plumbing and HVAC systems;read blueprints and follow job specifications;keep job sites clean, safe and organized;complete work orders and record parts used;work with supervisors to plan the day's tasks" },
  { name: "teaching", weight: 5, levels: "clinical", sectors: "education", remote: 0.03, hybrid: 0.01,
    employment: [65, 25, 6, 4, 0], terms: [2, 7, 0.3], pay: [42000, 78000, "year"],
    titles: "Teacher=25-2021.00;Substitute Teacher=25-3031.00;Special Education Teacher=25-2059.00;Elementary School Teacher=25-2021.00;Teacher Assistant=25-9042.00;Paraprofessional=25-9042.00;High School Teacher=25-2031.00;Preschool Teacher=25-2011.00;Tutor=25-3041.00;Childcare Worker=39-9011.00;Adjunct Professor=25-1199.00;Middle School Math Teacher=25-2022.00;Science Teacher=25-2031.00;English Teacher=25-2031.00;School Counselor=21-1012.00;Daycare Teacher=25-2011.00;ESL Teacher=25-3011.00;Instructional Designer=25-9031.00;Assistant Professor=25-1199.00;Lecturer=25-1199.00;Academic Advisor=21-1012.00;Kindergarten Teacher=25-2012.00;School Principal=11-9032.00",
    tech: "Google Classroom;Canvas;Microsoft Office;Zoom;PowerSchool;Blackboard;Smartboard|SMART Board;Moodle;Articulate Storyline",
    skills: "classroom management;lesson planning;differentiated instruction;strong written communication;curriculum development;patience;student assessment;parent communication;state teaching certification|teaching license;IEP development;CPR certification;bilingual Spanish;critical thinking",
    duties: "plan and deliver engaging lessons aligned with state standards;assess student progress and adapt instruction to each learner;maintain a safe, inclusive and well-managed classroom;communicate regularly with parents and guardians;collaborate with grade-level teams and support staff;support students with individualized education programs" },
  { name: "service", weight: 7, levels: "hourly", sectors: "hospitality;retail", remote: 0.12, hybrid: 0.02,
    employment: [45, 48, 0, 7, 0], terms: [2, 6, 0.25], pay: [13, 20, "hour"],
    titles: "Customer Service Representative=43-4051.00;Server=35-3031.00;Line Cook=35-2014.00;Crew Member=35-3023.00;Cook=35-2014.00;Security Officer=33-9032.00;Dishwasher=35-9021.00;Housekeeper=37-2012.00;Call Center Representative=43-4051.00;Bartender=35-3011.00;Host=35-9031.00;Restaurant Manager=11-9051.00;Prep Cook=35-2021.00;Security Guard=33-9032.00;Shift Manager=35-1012.00;Customer Support Specialist=43-4051.00;Food Service Worker=35-3041.00;Hotel Front Desk Agent=43-4081.00;Kitchen Manager=11-9051.00;Guest Service Agent=43-4081.00;Concierge=39-6012.00",
    tech: "POS systems|POS;Zendesk;Salesforce;Microsoft Office;Toast;Opera PMS;cash register;CRM",
    skills: "customer service;food safety|ServSafe;cash handling;teamwork;conflict resolution;bilingual Spanish;active listening;multitasking;friendly attitude;flexible schedule;lift up to 50 pounds;time management;problem solving",
    duties: "answer customer calls, chats and emails with patience and care;take orders and serve guests in a fast-paced environment;prepare food to recipe and food safety standards;keep guest areas and rooms clean and welcoming;patrol the property and report incidents;resolve complaints and escalate when needed" },
  { name: "marketing", weight: 5, levels: "pro", sectors: "services;tech;retail", remote: 0.38, hybrid: 0.18,
    employment: [78, 5, 10, 1, 6], terms: [3, 10, 0.5], pay: [55000, 135000, "year"],
    titles: "Marketing Manager=11-2021.00;Graphic Designer=27-1024.00;Marketing Coordinator=13-1161.00;Product Manager=11-2021.00;Digital Marketing Specialist=13-1161.00;UX Designer=15-1255.00;Social Media Manager=13-1161.00;Content Writer=27-3043.00;Product Designer=15-1255.00;Copywriter=27-3043.00;Marketing Analyst=13-1161.00;SEO Specialist=13-1161.01;Brand Manager=11-2021.00;Communications Specialist=27-3031.00;Digital Marketing Manager=11-2021.00;Event Coordinator=13-1121.00;Public Relations Specialist=27-3031.00;Technical Writer=27-3042.00;Video Editor=27-4032.00;Content Marketing Manager=11-2021.00;Growth Marketing Manager=11-2021.00",
    tech: "Google Analytics|GA4;HubSpot;Figma;Adobe Creative Suite|Adobe CC;Photoshop|Adobe Photoshop;Canva;WordPress;Google Ads;Excel|MS Excel;Meta Ads|Facebook Ads;Illustrator|Adobe Illustrator;Salesforce;SEMrush;Marketo;SQL;Jira;Premiere Pro;Sketch",
    skills: "strong written communication;content strategy;copywriting;SEO;project management;campaign management;social media;data analysis;brand strategy;creativity;user research;stakeholder management;critical thinking",
    duties: "plan and run multi-channel campaigns from brief to report;write and edit copy for web, email and social channels;design assets that follow our brand guidelines;analyze campaign performance and recommend improvements;run user research and turn insights into product decisions;coordinate launches with product, sales and agency partners" },
];

interface Title {
  title: string;
  code: string;
}

interface Family {
  spec: FamilySpec;
  titles: Weighted<Title>;
  tech: Weighted<string[]>;
  skills: Weighted<string[]>;
  duties: string[];
  sectors: string[];
  employment: Weighted<string>;
  remote: number;
  hybrid: number;
}

const EMPLOYMENT_TYPES = ["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "INTERN"];

function compileFamilies(): Weighted<Family> {
  const specs = FAMILY_SPECS;
  const totalWeight = specs.reduce((sum, f) => sum + f.weight, 0);
  const share = (rate: (f: FamilySpec) => number) =>
    specs.reduce((sum, f) => sum + f.weight * rate(f), 0) / totalWeight;
  const remoteScale = 0.18 / share((f) => f.remote);
  const hybridScale = 0.08 / share((f) => f.hybrid);
  const terms = (s: string) => {
    const groups = list(s).map((t) => t.split("|"));
    return new Weighted(groups, zipf(groups.length, 0.7));
  };
  const families = specs.map((spec): Family => {
    const titles = list(spec.titles).map((t) => {
      const [title, code] = t.split("=");
      return { title, code };
    });
    return {
      spec,
      titles: new Weighted(titles, zipf(titles.length, 1)),
      tech: terms(spec.tech),
      skills: terms(spec.skills),
      duties: list(spec.duties),
      sectors: list(spec.sectors),
      employment: new Weighted(EMPLOYMENT_TYPES, spec.employment),
      remote: spec.remote * remoteScale,
      hybrid: spec.hybrid * hybridScale,
    };
  });
  return new Weighted(families, specs.map((f) => f.weight));
}

// ---------------------------------------------------------------------------------------
// Places

interface Country {
  code: string;
  alpha3: string;
  names: string[];
  cities: Weighted<[locality: string, region: string]>;
}

// deno-fmt-ignore
const COUNTRY_SPECS: [code: string, alpha3: string, weight: number, names: string, cities: string][] = [
  ["US", "USA", 62, "United States;United States of America;U.S.", "New York:NY;Chicago:IL;Dallas:TX;Houston:TX;Atlanta:GA;Los Angeles:CA;Austin:TX;Phoenix:AZ;Seattle:WA;Boston:MA;San Francisco:CA;Charlotte:NC;Denver:CO;Washington:DC;Philadelphia:PA;Miami:FL;San Diego:CA;Minneapolis:MN;Nashville:TN;Orlando:FL;Tampa:FL;San Jose:CA;Columbus:OH;Raleigh:NC;Indianapolis:IN;Detroit:MI;Portland:OR;Salt Lake City:UT;Las Vegas:NV;Kansas City:MO;St. Louis:MO;Pittsburgh:PA;Baltimore:MD;Arlington:VA;Richmond:VA;Milwaukee:WI;Louisville:KY;Oklahoma City:OK;Sacramento:CA;Omaha:NE;Cleveland:OH;Cincinnati:OH;Jacksonville:FL;San Antonio:TX;Fort Worth:TX;Memphis:TN;Birmingham:AL;New Orleans:LA;Albuquerque:NM;Boise:ID;Des Moines:IA;Hartford:CT;Newark:NJ;Jersey City:NJ;Providence:RI;Honolulu:HI;Anchorage:AK;Little Rock:AR;Charleston:SC;Madison:WI;Irvine:CA;Plano:TX;Scottsdale:AZ;Tempe:AZ;Durham:NC;Cambridge:MA;Bellevue:WA;Redmond:WA;Mountain View:CA;Sunnyvale:CA;Palo Alto:CA;Oakland:CA;Fresno:CA;Long Beach:CA;Tucson:AZ;El Paso:TX;Buffalo:NY;Rochester:NY;Albany:NY;Syracuse:NY;Grand Rapids:MI;Ann Arbor:MI;Toledo:OH;Akron:OH;Dayton:OH;Knoxville:TN;Chattanooga:TN;Greenville:SC;Columbia:SC;Savannah:GA;Tallahassee:FL;Fort Lauderdale:FL;Spokane:WA;Tacoma:WA;Reno:NV;Colorado Springs:CO;Wichita:KS;Tulsa:OK;Lexington:KY;Baton Rouge:LA;Jackson:MS;Portland:ME;Burlington:VT;Manchester:NH;Wilmington:DE;Fargo:ND;Sioux Falls:SD;Billings:MT;Cheyenne:WY;Charleston:WV"],
  ["GB", "GBR", 9, "United Kingdom;UK;Great Britain", "London:England;Manchester:England;Birmingham:England;Leeds:England;Edinburgh:Scotland;Glasgow:Scotland;Bristol:England;Cambridge:England;Reading:England;Belfast:Northern Ireland;Cardiff:Wales;Oxford:England"],
  ["DE", "DEU", 5, "Germany;Deutschland", "Berlin:Berlin;Munich:Bavaria;Hamburg:Hamburg;Frankfurt:Hesse;Cologne:North Rhine-Westphalia;Stuttgart:Baden-Württemberg;Düsseldorf:North Rhine-Westphalia;Leipzig:Saxony"],
  ["CA", "CAN", 5, "Canada", "Toronto:ON;Vancouver:BC;Montreal:QC;Calgary:AB;Ottawa:ON;Edmonton:AB;Waterloo:ON;Halifax:NS"],
  ["IN", "IND", 4, "India", "Bengaluru:Karnataka;Hyderabad:Telangana;Pune:Maharashtra;Mumbai:Maharashtra;Chennai:Tamil Nadu;Gurugram:Haryana;Bangalore:Karnataka;Noida:Uttar Pradesh"],
  ["NL", "NLD", 2, "Netherlands;The Netherlands", "Amsterdam:North Holland;Rotterdam:South Holland;Utrecht:Utrecht;Eindhoven:North Brabant;The Hague:South Holland"],
  ["FR", "FRA", 2, "France", "Paris:Île-de-France;Lyon:Auvergne-Rhône-Alpes;Toulouse:Occitanie;Lille:Hauts-de-France;Nantes:Pays de la Loire"],
  ["AU", "AUS", 2, "Australia", "Sydney:NSW;Melbourne:VIC;Brisbane:QLD;Perth:WA;Adelaide:SA"],
  ["IE", "IRL", 1.2, "Ireland;Republic of Ireland", "Dublin:County Dublin;Cork:County Cork;Galway:County Galway;Limerick:County Limerick"],
  ["ES", "ESP", 1, "Spain", "Madrid:Community of Madrid;Barcelona:Catalonia;Valencia:Valencian Community;Málaga:Andalusia"],
  ["PL", "POL", 1, "Poland", "Warsaw:Masovia;Kraków:Lesser Poland;Wrocław:Lower Silesia;Gdańsk:Pomerania"],
  ["BR", "BRA", 0.9, "Brazil;Brasil", "São Paulo:SP;Rio de Janeiro:RJ;Belo Horizonte:MG;Curitiba:PR"],
  ["SE", "SWE", 0.8, "Sweden", "Stockholm:Stockholm County;Gothenburg:Västra Götaland;Malmö:Skåne"],
  ["CH", "CHE", 0.8, "Switzerland", "Zurich:ZH;Geneva:GE;Basel:BS;Lausanne:VD"],
  ["SG", "SGP", 0.8, "Singapore", "Singapore:"],
  ["MX", "MEX", 0.8, "Mexico;México", "Mexico City:CDMX;Guadalajara:Jalisco;Monterrey:Nuevo León"],
  ["JP", "JPN", 0.7, "Japan", "Tokyo:Tokyo;Osaka:Osaka;Yokohama:Kanagawa"],
  ["IT", "ITA", 0.5, "Italy", "Milan:Lombardy;Rome:Lazio;Turin:Piedmont"],
  ["BE", "BEL", 0.5, "Belgium", "Brussels:Brussels-Capital;Antwerp:Antwerp;Ghent:East Flanders"],
];

const GARBAGE_COUNTRIES = ["Atlantis", "N/A", "Unknown", "XX", "-", "Narnia", "TBD"];

const COUNTRIES = new Weighted<Country>(
  COUNTRY_SPECS.map(([code, alpha3, , names, cities]) => {
    const pairs = list(cities).map((c) => c.split(":") as [string, string]);
    return {
      code,
      alpha3,
      names: list(names),
      cities: new Weighted(pairs, zipf(pairs.length, 0.7)),
    };
  }),
  COUNTRY_SPECS.map(([, , weight]) => weight),
);

// ---------------------------------------------------------------------------------------
// Employers: 2,000 names, the same for every seed

// deno-fmt-ignore
const EMPLOYER_PREFIXES = list("Northwind;Blue Ridge;Summit;Cedar;Harbor;Evergreen;Pioneer;Silverline;Redwood;Granite;Lakeshore;Brightpath;Ironwood;Meridian;Keystone;Riverbend;Oakmont;Crescent;Horizon;Sterling;Bluewater;Highland;Maple;Atlas;Beacon;Cobalt;Copperleaf;Driftwood;Eastgate;Fairview;Foxglove;Gateway;Hawthorne;Juniper;Kestrel;Lighthouse;Magnolia;Northstar;Orchard;Pinnacle;Quarry;Rockbridge;Sagebrush;Stonegate;Tidewater;Trailhead;Union Square;Vantage;Westbrook;Willow Creek");

// deno-fmt-ignore
const SECTORS: [sector: string, count: number, noun: string, cores: string][] = [
  ["tech", 320, "software", "Analytics;Software;Labs;Systems;Digital;Cloud;Technologies;Data"],
  ["health", 300, "healthcare", "Health;Medical Center;Healthcare;Clinic;Hospital;Care;Senior Living;Pharmacy"],
  ["retail", 200, "retail", "Market;Outfitters;Goods;Grocers;Supply Co.;Home & Garden;Apparel;Stores"],
  ["logistics", 200, "logistics", "Logistics;Freight;Distribution;Transport;Fulfillment;Supply Chain;Shipping;Warehousing"],
  ["finance", 240, "financial services", "Bank;Financial;Capital;Credit Union;Insurance;Partners;Wealth Management;Accounting"],
  ["education", 180, "education", "Academy;School District;College;University;Learning;Charter Schools;Education;Early Learning Center"],
  ["construction", 200, "construction and facilities", "Construction;Builders;Electric;Mechanical;Plumbing & Heating;Contractors;Manufacturing;Industries"],
  ["hospitality", 180, "hospitality", "Hospitality;Hotels;Restaurants;Kitchen;Cafe;Resorts;Foods;Catering"],
  ["services", 180, "professional services", "Consulting;Group;Solutions;Staffing;Services;Associates;Agency;Media"],
];

interface Sector {
  noun: string;
  employers: Weighted<string>;
}

function compileSectors(): Map<string, Sector> {
  const rng = new Rng(20260505, 0);
  const suffixes = new Weighted(list("; Inc.;, Inc.; LLC; Ltd; Corp."), [70, 10, 5, 8, 3, 4]);
  const sectors = new Map<string, Sector>();
  for (const [name, count, noun, cores] of SECTORS) {
    const names = list(cores).flatMap((core) => EMPLOYER_PREFIXES.map((p) => `${p} ${core}`));
    for (let i = names.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [names[i], names[j]] = [names[j], names[i]];
    }
    const employers = names.slice(0, count).map((n) => n + suffixes.pick(rng));
    sectors.set(name, { noun, employers: new Weighted(employers, zipf(count, 0.5)) });
  }
  return sectors;
}

const FAMILIES = compileFamilies();
const SECTOR_MAP = compileSectors();
const SECTOR_NAMES = SECTORS.map(([name]) => name);

/** The employer names of the pool (2,000, fixed). */
export function employerPool(): string[] {
  return [...SECTOR_MAP.values()].flatMap((s) => [...s.employers.items]);
}

// ---------------------------------------------------------------------------------------
// Dates

interface Calendar {
  days: number;
  /** Cumulative share of postings up to and including each day. */
  cdf: Float64Array;
  /** ISO dates from the first day of the span to 90 days after its end. */
  dates: string[];
}

const DAY_MS = 86_400_000;
const WEEKDAY_WEIGHTS = [0.35, 1.15, 1.2, 1.15, 1.1, 0.95, 0.3]; // Sunday first

function parseDay(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const ms = Date.UTC(+text.slice(0, 4), +text.slice(5, 7) - 1, +text.slice(8, 10));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : null;
}

function buildCalendar(end: string, days: number): Calendar {
  const endMs = parseDay(end);
  if (endMs === null) throw new RangeError(`end must be a date as YYYY-MM-DD, got "${end}"`);
  const startMs = endMs - (days - 1) * DAY_MS;
  const weights = Array.from({ length: days }, (_, t) => {
    const weekday = new Date(startMs + t * DAY_MS).getUTCDay();
    return WEEKDAY_WEIGHTS[weekday] * (1 + (days > 1 ? 0.3 * t / (days - 1) : 0));
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const cdf = new Float64Array(days);
  let sum = 0;
  weights.forEach((w, t) => cdf[t] = (sum += w) / total);
  cdf[days - 1] = 1;
  const dates = Array.from(
    { length: days + 91 },
    (_, t) => new Date(startMs + t * DAY_MS).toISOString().slice(0, 10),
  );
  return { days, cdf, dates };
}

// ---------------------------------------------------------------------------------------
// One posting

type Mode = "onsite" | "negated" | "hybrid" | "telecommute" | "phrase";

interface Place {
  country: Country;
  locality?: string;
  region?: string;
  address?: Record<string, string>;
  requirement?: string;
}

// deno-fmt-ignore
const LEVELS: Record<Levels, Weighted<[string, string]>> = {
  pro: new Weighted<[string, string]>(
    [["", ""], ["Senior ", ""], ["Sr. ", ""], ["Lead ", ""], ["Principal ", ""], ["Staff ", ""],
      ["Junior ", ""], ["Jr. ", ""], ["Associate ", ""], ["", " II"], ["", " III"], ["", " I"]],
    [58, 14, 6, 4, 1.5, 1.5, 4, 1, 2, 4, 2, 1.5],
  ),
  clinical: new Weighted<[string, string]>(
    [["", ""], ["Senior ", ""], ["Lead ", ""], ["Sr. ", ""], ["", " II"], ["", " III"]],
    [90, 3, 2, 1, 3, 1],
  ),
  hourly: new Weighted<[string, string]>(
    [["", ""], ["Lead ", ""], ["Senior ", ""], ["", " II"]],
    [95, 3, 1, 1],
  ),
};

const REMOTE_TITLE = [" - Remote", " (Remote)", " | Remote", " - 100% Remote", " - Work From Home"];
const REMOTE_SENTENCES = [
  (p: string) => `This is a fully remote position open to candidates anywhere in ${p}.`,
  () => "This role is 100% remote.",
  () => "Work from home: this position is remote.",
  (_: string, code: string) => `Location: Remote (${code}).`,
  () => "You will work from home full time, with occasional team meetups.",
  () => "We are a fully remote team spread across several time zones.",
];
const HYBRID_SENTENCES = [
  (c: string) => `This is a hybrid role with 3 days in office at our ${c} location.`,
  () => "Hybrid schedule: 3 days in office per week, Tuesday to Thursday.",
  (c: string) => `This position is hybrid and based in ${c}.`,
  () => "We work in a hybrid model, in the office three days a week.",
  () => "Hybrid: 3 days a week in the office, 2 days flexible.",
];
const NEGATION_SENTENCES = [
  (c: string) => `This position is not remote; you will work on-site in ${c}.`,
  () => "Please note: no remote work. This role is on-site every day.",
  () => "Remote work is not available for this role.",
  () => "This is an on-site role (not remote).",
];
const ONSITE_SENTENCES = [
  (c: string) => `This is an on-site position in ${c}.`,
  (c: string) => `The role is based at our ${c} site.`,
];
const INTROS = [
  (v: Vars) =>
    `${v.employer} is hiring ${article(v.base)} ${v.base} to join our team in ${v.place}.`,
  (v: Vars) => `As ${article(v.base)} ${v.base} at ${v.employer}, you will ${v.duty}.`,
  (v: Vars) => `About the role: we are looking for ${article(v.base)} ${v.base} to ${v.duty}.`,
  (v: Vars) => `Join ${v.employer} as our next ${v.base}!`,
];
const TECH_SENTENCES = [
  (t: string) => `Our stack includes ${t}.`,
  (t: string) => `Experience with ${t} is required.`,
  (t: string) => `Hands-on experience with ${t}.`,
  (t: string) => `Familiarity with ${t} is a plus.`,
  (t: string) => `Tools you will use: ${t}.`,
];
const MORE_DUTIES = [
  (d: string) => `You will also ${d}.`,
  (d: string) => `Additionally, you will ${d}.`,
  (d: string) => `Day to day, you will ${d}.`,
  (d: string) => capitalize(d) + ".",
];
const QUALIFICATIONS: Record<Levels, string[]> = {
  pro: [
    "Bachelor's degree in a related field or equivalent practical experience.",
    "{n}+ years of relevant professional experience.",
    "Comfortable working in a fast-paced, collaborative environment.",
  ],
  clinical: [
    "Current state license or certification in good standing.",
    "{n}+ years of experience in a similar setting preferred.",
    "Able to work 12-hour shifts, including some nights, weekends and holidays.",
  ],
  hourly: [
    "High school diploma or GED preferred; no experience necessary, we provide paid training.",
    "Must be at least 18 years old.",
    "Able to stand and walk for an entire shift.",
  ],
};
const MANAGERS: Record<Levels, string[]> = {
  pro: ["hiring manager", "head of the department", "director of the team"],
  clinical: ["unit manager", "clinical director", "practice manager"],
  hourly: ["shift lead", "site manager", "operations supervisor"],
};
const GROWTH = [
  "We invest in our people through mentorship, internal mobility and paid certifications.",
  "Many of our leaders started in roles like this one, and we promote from within.",
  "You will get a structured onboarding plan and regular feedback from day one.",
];
const SKILL_SENTENCES = [
  (s: string) => `We are looking for ${s}.`,
  (s: string) => `Requirements: ${s}.`,
  (s: string) => `The ideal candidate brings ${s}.`,
  (s: string) => `Must have: ${s}.`,
];
const ADJECTIVES = list(
  "fast-growing;family-owned;award-winning;mission-driven;global;regional;employee-owned;leading",
);
const CULTURE = [
  "We value curiosity, ownership and clear communication.",
  "Our people stay because they get to learn, grow and do meaningful work.",
  "We are proud of a culture built on respect, teamwork and doing the right thing.",
  "You will join a friendly team that celebrates wins and learns from mistakes.",
];
const BENEFITS = [
  "We offer competitive pay, medical, dental and vision insurance, and a 401(k) with company match.",
  "Benefits include paid time off, paid holidays, parental leave and a yearly learning budget.",
  "Perks: employee discounts, tuition assistance and an employee assistance program.",
  "Full-time employees are eligible for health benefits from day one.",
];
const SCHEDULES = [
  "Schedule: 8-hour shifts, Monday to Friday.",
  "Shifts available: days, evenings and weekends.",
  "Must be available to work weekends and holidays.",
  "Overtime is available during peak season.",
];
const APPLY = [
  "Apply today to join our team!",
  "Interested candidates should submit a resume and a short cover letter.",
  "Questions? Reach out to our recruiting team through the careers page.",
];
const EEO = (e: string) =>
  `${e} is an equal opportunity employer. All qualified applicants will receive consideration ` +
  "for employment without regard to race, color, religion, sex, sexual orientation, gender " +
  "identity, national origin, disability or veteran status.";
const TITLE_NOISE = [" - Sign-On Bonus", " - Immediate Start", " - Weekly Pay", " - Hiring Now"];
const BAD_DATES = list("sometime soon;2026-13-45;2026-02-30;ASAP;not a date;0000-00-00;yesterday;");

/** "a" or "an" before a title, including initialisms read letter by letter ("an RN"). */
function article(title: string): string {
  const word = title.split(" ")[0];
  if (/^[A-Z]{2,}/.test(word)) return /^[AEFHILMNORSX]/.test(word) ? "an" : "a";
  return /^[AEIO]|^U(?![IX])/i.test(word) ? "an" : "a";
}

interface Vars {
  employer: string;
  base: string;
  place: string;
  duty: string;
}

function pickPlace(rng: Rng, mode: Mode): Place {
  const country = COUNTRIES.pick(rng);
  const [locality, region] = country.cities.pick(rng);
  const place: Place = { country, locality, region: region || undefined };
  const spelling = rng.float();
  let countryText: string | undefined = country.code;
  let regionText = place.region;
  if (spelling < 0.01) {
    place.address = { addressCountry: rng.pick(GARBAGE_COUNTRIES) };
    return place;
  }
  if (country.code === "US" && rng.float() < 0.0323) {
    countryText = undefined, regionText = usStateByCode(region)?.name;
  } else if (spelling < 0.111) countryText = rng.pick(country.names);
  else if (spelling < 0.141) countryText = country.alpha3;
  else if (spelling < 0.151) countryText = country.code.toLowerCase();
  const address: Record<string, string> = {};
  if (countryText !== undefined) address.addressCountry = countryText;
  const shape = rng.float();
  const countryOnly = mode === "telecommute" && shape < 0.3 && countryText !== undefined;
  if (!countryOnly) {
    if (regionText && (shape > 0.08 || countryText === undefined)) {
      address.addressRegion = regionText;
    }
    if (shape < 0.97 || countryText === undefined) address.addressLocality = locality;
  }
  place.address = address;
  if (mode === "telecommute") {
    const name = rng.float() < 0.8 ? country.code : country.names[0];
    if (rng.float() < 0.15 && !countryOnly) place.address = undefined;
    if (place.address === undefined || rng.float() < 0.82) place.requirement = name;
  }
  return place;
}

function composeTitle(
  rng: Rng,
  family: Family,
  base: string,
  type: string,
  mode: Mode,
  place: Place,
) {
  let title = base;
  if (type === "INTERN") title = rng.float() < 0.7 ? `${base} Intern` : `Intern - ${base}`;
  else {
    const [prefix, suffix] = LEVELS[family.spec.levels].pick(rng);
    if (!prefix || !base.startsWith(prefix.trim())) title = prefix + base + suffix;
  }
  const extra = rng.float();
  if (type === "CONTRACTOR" && extra < 0.4) {
    title += rng.pick([" (Contract)", " - Contract", " (Contract to Hire)"]);
  } else if (type === "PART_TIME" && extra < 0.3) {
    title += rng.pick([" - Part Time", " (Part-Time)"]);
  } else if (type === "TEMPORARY" && extra < 0.3) {
    title += rng.pick([" - Temporary", " (Seasonal)"]);
  }
  const marker = rng.float();
  if ((mode === "phrase" && marker < 0.4) || (mode === "telecommute" && marker < 0.2)) {
    title = marker < 0.05 ? `Remote ${title}` : title + rng.pick(REMOTE_TITLE);
  } else if (mode === "hybrid" && marker < 0.25) title += rng.pick([" (Hybrid)", " - Hybrid"]);
  const noise = rng.float();
  if (noise < 0.02) title = title.toUpperCase();
  else if (noise < 0.04) title += ` (Req #${10000 + rng.int(90000)})`;
  else if (noise < 0.06 && place.locality && place.address?.addressLocality) {
    title += ` - ${place.locality}${place.region ? ", " + place.region : ""}`;
  } else if (noise < 0.075) {
    title = rng.float() < 0.4 ? `URGENT: ${title}` : title + rng.pick(TITLE_NOISE);
  } else if (noise < 0.085) title = rng.float() < 0.5 ? title.replace(" ", "  ") : ` ${title} `;
  return title;
}

function pickTerms(rng: Rng, family: Family): { tech: string[]; skills: string[] } {
  const [min, max, techShare] = family.spec.terms;
  const count = min + rng.int(max - min + 1);
  const chosen = new Set<string[]>();
  const tech: string[] = [], skills: string[] = [];
  for (let tries = 0; tech.length + skills.length < count && tries < count * 4; tries++) {
    const isTech = rng.float() < techShare;
    const group = (isTech ? family.tech : family.skills).pick(rng);
    if (chosen.has(group)) continue;
    chosen.add(group);
    const name = group.length === 1 || rng.float() < 0.6
      ? group[0]
      : group[1 + rng.int(group.length - 1)];
    (isTech ? tech : skills).push(name);
  }
  return { tech, skills };
}

function joinList(rng: Rng, items: string[]): string {
  if (items.length < 2) return items[0] ?? "";
  if (rng.float() < 0.1) return items.join(" / ");
  const last = items[items.length - 1];
  const oxford = items.length > 2 && rng.float() < 0.5 ? "," : "";
  return `${items.slice(0, -1).join(", ")}${oxford} and ${last}`;
}

function money(n: number): string {
  return "$" + String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function paySentence(rng: Rng, [low, high, unit]: Pay): string {
  const from = low + (high - low) * 0.6 * rng.float();
  const to = Math.min(high * 1.1, from * (1.15 + 0.35 * rng.float()));
  const round = (x: number) => unit === "hour" ? Math.round(x) : Math.round(x / 1000) * 1000;
  return `Pay: ${money(round(from))} - ${money(round(to))} per ${unit}.`;
}

function composeDescription(
  rng: Rng,
  family: Family,
  v: Vars,
  mode: Mode,
  place: Place,
  terms: { tech: string[]; skills: string[] },
  sector: string,
): string {
  const city = place.address?.addressLocality ?? "our main";
  const code = place.country.code;
  const countryName = (code === "US" || code === "GB" || code === "NL" ? "the " : "") +
    place.country.names[0];
  const bullets = rng.float() < 0.3;
  const item = bullets ? "\n- " : "";
  const duties = [...family.duties];
  for (let i = duties.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [duties[i], duties[j]] = [duties[j], duties[i]];
  }
  v.duty = duties[0];
  const required: string[] = [rng.pick(INTROS)(v)];
  let work = "";
  if (mode === "phrase" || (mode === "telecommute" && rng.float() < 0.5)) {
    work = rng.pick(REMOTE_SENTENCES)(countryName, code);
  } else if (mode === "hybrid") work = rng.pick(HYBRID_SENTENCES)(city);
  else if (mode === "negated") work = rng.pick(NEGATION_SENTENCES)(city);
  else if (mode === "onsite" && rng.float() < 0.3) work = rng.pick(ONSITE_SENTENCES)(city);
  const early = rng.float() < 0.5;
  if (work && early) required.push(work);
  const dutyCount = 1 + rng.int(3);
  if (bullets) required.push("\n\nResponsibilities:");
  for (const duty of duties.slice(1, 1 + dutyCount)) {
    required.push(bullets ? item + capitalize(duty) + "." : `You will ${duty}.`);
  }
  if (bullets) required.push("\n\nRequirements:");
  if (terms.tech.length) {
    const templates = family.spec.terms[2] >= 0.6 ? TECH_SENTENCES : TECH_SENTENCES.slice(1);
    required.push(item + rng.pick(templates)(joinList(rng, terms.tech)));
  }
  if (terms.skills.length) {
    required.push(item + rng.pick(SKILL_SENTENCES)(joinList(rng, terms.skills)));
  }
  if (work && !early) required.push((bullets ? "\n\n" : "") + work);
  const levels = family.spec.levels;
  const adjective = rng.pick(ADJECTIVES);
  const optional = [
    (bullets ? "\n\n" : "") +
    `${v.employer} is ${article(adjective)} ${adjective} ${SECTOR_MAP.get(sector)!.noun} company.`,
    `Founded in ${1950 + rng.int(72)}, we now employ more than ${
      money(100 * (2 + rng.int(200))).slice(1)
    } ` +
    `people and serve customers across ${countryName} and beyond.`,
    rng.pick(CULTURE),
    (bullets ? "\n\nQualifications:\n- " : "") +
    QUALIFICATIONS[levels].join(bullets ? "\n- " : " ").replace("{n}", String(1 + rng.int(7))),
    ...duties.slice(1 + dutyCount).map((d) => rng.pick(MORE_DUTIES)(d)),
    `You will report to the ${rng.pick(MANAGERS[levels])} and work closely with a team of ` +
    `${3 + rng.int(25)} colleagues.`,
    rng.pick(BENEFITS),
    place.country.code === "US" ? paySentence(rng, family.spec.pay) : "",
    levels === "hourly" ? rng.pick(SCHEDULES) : "",
    rng.pick(GROWTH),
    `Applicants must be authorized to work in ${countryName}; we do not offer visa sponsorship.`,
    "Employment is contingent on a background check.",
    rng.pick(APPLY),
    EEO(v.employer),
  ];
  const target = Math.min(2000, Math.max(300, Math.round(Math.exp(6.745 + 0.45 * normal(rng)))));
  let text = "";
  const add = (part: string) => text += (text && part[0] !== "\n" ? " " : "") + part;
  required.forEach(add);
  for (const extra of optional) {
    if (extra && text.length + 1 + extra.length <= (text.length < 300 ? 2000 : target)) add(extra);
  }
  while (text.length < 300) add(rng.pick(APPLY));
  return text;
}

const capitalize = (s: string) => s[0].toUpperCase() + s.slice(1);

function normal(rng: Rng): number {
  const u = 1 - rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.float());
}

/** Days from datePosted to validThrough, or -1 for none. */
function validityDays(rng: Rng): number {
  const v = rng.float();
  if (v < 0.7) return 30 + rng.int(31);
  if (v < 0.78) return 7 + rng.int(23);
  if (v < 0.83) return 61 + rng.int(30);
  return -1;
}

function buildPosting(rng: Rng, id: string, day: number, cal: Calendar): Record<string, unknown> {
  const family = FAMILIES.pick(rng);
  const { title: base, code } = family.titles.pick(rng);
  const type = rng.float() < 0.04 ? undefined : family.employment.pick(rng);
  const m = rng.float();
  let mode: Mode;
  if (m < family.remote) mode = rng.float() < 0.5 ? "telecommute" : "phrase";
  else if (m < family.remote + family.hybrid) mode = "hybrid";
  else mode = rng.float() < 0.05 ? "negated" : "onsite";
  const place = pickPlace(rng, mode);
  const sector = rng.float() < 0.8 ? rng.pick(family.sectors) : rng.pick(SECTOR_NAMES);
  const employer = rng.float() < 0.005
    ? "Confidential"
    : SECTOR_MAP.get(sector)!.employers.pick(rng);
  const title = composeTitle(rng, family, base, type ?? "", mode, place);
  const terms = pickTerms(rng, family);
  const placeText = place.locality && place.address?.addressLocality
    ? place.locality
    : place.country.names[0];
  const vars = { employer, base, place: placeText, duty: "" };
  const description = composeDescription(rng, family, vars, mode, place, terms, sector);
  const validDays = validityDays(rng);
  const all = [...terms.tech, ...terms.skills];
  const skillCount = rng.float() < 0.25 ? 0 : Math.min(all.length, 1 + rng.int(6));
  const skills: string[] = [];
  for (let i = 0; i < skillCount; i++) {
    const j = i + rng.int(all.length - i);
    [all[i], all[j]] = [all[j], all[i]];
    skills.push(all[i]);
  }
  const withCode = rng.float() < 0.3;
  const posting: Record<string, unknown> = {
    "@type": "JobPosting",
    identifier: id,
    title,
    description,
  };
  posting.datePosted = cal.dates[day];
  if (validDays > 0) posting.validThrough = cal.dates[day + validDays];
  if (type) posting.employmentType = type;
  posting.hiringOrganization = { name: employer };
  if (place.address) posting.jobLocation = { address: place.address };
  if (mode === "telecommute") posting.jobLocationType = "TELECOMMUTE";
  if (place.requirement) {
    posting.applicantLocationRequirements = { "@type": "Country", name: place.requirement };
  }
  if (skills.length) posting.skills = skills;
  if (withCode) posting.occupationalCategory = code;
  return posting;
}

// ---------------------------------------------------------------------------------------
// The feed

/** Every problem with the options, as messages naming the option. */
function optionProblems(options: SyntheticOptions): string[] {
  const { count, seed, end = DEFAULT_END, days = DEFAULT_DAYS } = options;
  const problems: string[] = [];
  if (!Number.isSafeInteger(count) || count < 0) {
    problems.push(`count must be a whole number of postings, got ${count}`);
  }
  if (!Number.isSafeInteger(seed) || seed < 0) {
    problems.push(`seed must be a non-negative whole number, got ${seed}`);
  }
  if (parseDay(end) === null) problems.push(`end must be a date as YYYY-MM-DD, got "${end}"`);
  if (!Number.isSafeInteger(days) || days < 1 || days > MAX_DAYS) {
    problems.push(`days must be a whole number from 1 to ${MAX_DAYS}, got ${days}`);
  }
  return problems;
}

function resolveOptions(options: SyntheticOptions) {
  const problems = optionProblems(options);
  if (problems.length) throw new RangeError(problems.join("; "));
  const { count, seed, end = DEFAULT_END, days = DEFAULT_DAYS } = options;
  return { count, seed, calendar: buildCalendar(end, days) };
}

/** The kind of a posting, fixed by (seed, index) so that it can be recomputed for any index. */
function kindOf(seed: number, index: number, rates: Rates): Kind {
  const u = hashDraw(seed, index, 0x6b696e64);
  if (u < BAD_RATE) return "bad";
  if (u < BAD_RATE + rates.repost) return "repost";
  if (u < BAD_RATE + rates.repost + rates.late) return "late";
  // Originals are split: only the first group is reposted soon, only the second late, so a
  // late repost never falls within 30 days of an earlier repost of the same job.
  return hashDraw(seed, index, 0x6c617465) < LATE_POOL ? "original-late" : "original";
}

type Kind = "bad" | "repost" | "late" | "original" | "original-late";

interface Rates {
  repost: number;
  late: number;
}

function hashDraw(seed: number, index: number, salt: number): number {
  const hi = Math.floor(seed / 4294967296) >>> 0;
  return mix32(mix32((seed >>> 0) ^ mix32(index ^ salt)) ^ mix32(hi + salt)) / 4294967296;
}

/** Yields the feed's postings in order (deterministic for a seed). */
export function* syntheticPostings(options: SyntheticOptions): Generator<Record<string, unknown>> {
  const { count, seed, calendar } = resolveOptions(options);
  const { days, cdf } = calendar;
  const main = new Rng(seed, 0xffffffff);
  const content = new Rng(seed, 0);
  // Rates are raised to make up for the first days, which have nothing to repost yet.
  const after = (d: number) => d >= days ? 0 : 1 - (d > 0 ? cdf[d - 1] : 0);
  const rates: Rates = {
    repost: REPOST_RATE / Math.max(0.5, after(1)),
    late: after(41) > 0 ? LATE_REPOST_RATE / Math.max(0.1, after(41)) : 0,
  };
  // dayStart[d] is the index of the first posting of day d; late reposts made in the last
  // 80 days are remembered so that no job is reposted late twice.
  const dayStart = new Int32Array(days + 1);
  const lateTaken = new Set<number>();
  const pickOriginal = (day: number, wanted: Kind) => {
    const from = dayStart[day], size = dayStart[day + 1] - from;
    for (let tries = 0; size > 0 && tries < 40; tries++) {
      const j = from + main.int(size);
      if (kindOf(seed, j, rates) !== wanted || lateTaken.has(j)) continue;
      if (wanted === "original-late") lateTaken.add(j);
      return j;
    }
    return -1;
  };
  let day = 0;
  for (let i = 0; i < count; i++) {
    const q = (i + 0.5) / count;
    while (day < days - 1 && cdf[day] <= q) {
      dayStart[++day] = i;
      if (day > 80) { for (const j of lateTaken) if (j < dayStart[day - 80]) lateTaken.delete(j); }
    }
    const id = `syn-${String(i + 1).padStart(9, "0")}`;
    const kind = kindOf(seed, i, rates);
    let source = i;
    if (kind === "repost" && day >= 1) {
      const lag = 1 + Math.floor(main.float() ** 1.6 * Math.min(25, day));
      source = pickOriginal(day - lag, "original");
    } else if (kind === "late" && day >= 41) {
      source = pickOriginal(day - 41 - main.int(Math.min(40, day - 40)), "original-late");
    }
    content.reseed(seed, source >= 0 ? source : i);
    const posting = buildPosting(content, id, day, calendar);
    if (kind === "bad") {
      if (main.float() < 0.5) {
        const t = main.float();
        if (t < 0.5) delete posting.title;
        else posting.title = t < 0.8 ? "" : "   ";
      } else {
        posting.datePosted = main.pick(BAD_DATES);
        delete posting.validThrough;
      }
    }
    yield posting;
  }
}

/** Streams count postings as NDJSON to path; returns bytes written. */
export async function writeSyntheticFeed(path: string, options: SyntheticOptions): Promise<number> {
  resolveOptions(options); // throws before the file is touched
  const postings = syntheticPostings(options);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(1 << 20);
  let used = 0, total = 0;
  const flush = async () => {
    for (let at = 0; at < used;) at += await file.write(buffer.subarray(at, used));
    total += used, used = 0;
  };
  try {
    for (const posting of postings) {
      const line = JSON.stringify(posting) + "\n";
      if (line.length * 3 > buffer.length - used) await flush();
      used += encoder.encodeInto(line, buffer.subarray(used)).written;
    }
    await flush();
  } finally {
    file.close();
  }
  return total;
}

// ---------------------------------------------------------------------------------------
// CLI

const USAGE =
  `usage: deno task gen:postings --count N --seed N --out PATH [--end YYYY-MM-DD] [--days N]
options:
  --count <N>         postings to write
  --seed <N>          seed (non-negative whole number); same seed and options, same bytes
  --out <path>        NDJSON file to write (replaced)
  --end <date>        last posting day (default ${DEFAULT_END})
  --days <N>          days in the span, ending at --end (default ${DEFAULT_DAYS})`;

async function main(args: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        count: { type: "string" },
        seed: { type: "string" },
        out: { type: "string" },
        end: { type: "string" },
        days: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.error(USAGE);
    return 0;
  }
  const problems: string[] = [];
  const whole = (name: string, text: string | undefined, required: boolean) => {
    if (text === undefined) {
      if (required) problems.push(`--${name} is required`);
      return undefined;
    }
    if (/^\d+$/.test(text)) return Number(text);
    problems.push(`--${name} must be a whole number, got "${text}"`);
    return undefined;
  };
  const count = whole("count", values.count, true);
  const seed = whole("seed", values.seed, true);
  const days = whole("days", values.days, false);
  if (!values.out) problems.push("--out is required");
  const options: SyntheticOptions = { count: count ?? 0, seed: seed ?? 0, end: values.end, days };
  problems.push(...optionProblems(options).map((p) => "--" + p));
  if (problems.length) {
    console.error(`${problems.join("\n")}\n${USAGE}`);
    return 2;
  }
  const started = performance.now();
  let bytes: number;
  try {
    bytes = await writeSyntheticFeed(values.out!, options);
  } catch (error) {
    console.error(`gen:postings failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const seconds = (performance.now() - started) / 1000;
  console.error(
    `wrote ${options.count} postings (${(bytes / 1048576).toFixed(1)} MiB) to ${values.out} ` +
      `in ${seconds.toFixed(2)} s (seed ${options.seed}, ${options.days ?? DEFAULT_DAYS} days to ` +
      `${options.end ?? DEFAULT_END})`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
