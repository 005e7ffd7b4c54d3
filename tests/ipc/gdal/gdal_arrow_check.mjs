// Reads every IPC stream (.arrows) and file (.arrow) that gdal_arrow_check wrote
// into DIR/ipc with Apache Arrow JS and compares each value with OGR's, from
// NAME.expected.jsonl (the same canonical text gdal_arrow_check compares).
// Values are read from apache-arrow's Data objects (its decoding of the buffers),
// not through the C library.
//
//   node gdal_arrow_check.mjs DIR [KNOWN]     (run by tools/check-gdal.sh)
//
// KNOWN: a file of "NAME<TAB>row<TAB>column" lines (mismatches gdal_arrow_check
// classified as GDAL's own bugs): listed there, a mismatch is counted as known.
// Last line: "N passed, N failed".
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { tableFromIPC, Type, TimeUnit, DateUnit, Precision } from 'apache-arrow';

const dir = process.argv[2] + '/ipc';
const decoder = new TextDecoder('utf-8', { fatal: false });

function valid(d, i) {
  if (d.typeId === Type.Null) return false;
  if (!d.nullBitmap || d.nullBitmap.length === 0) return true;
  const j = d.offset + i;
  return ((d.nullBitmap[j >> 3] >> (j & 7)) & 1) === 1;
}

function hex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

function canonDouble(v) {
  if (Number.isNaN(v)) return 'f:nan';
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v, true);
  return 'f:' + dv.getBigUint64(0, true).toString(16).padStart(16, '0');
}

function int64At(values, k) {
  // BigInt64Array, or a pair of Int32 words in older layouts.
  if (values instanceof BigInt64Array || values instanceof BigUint64Array) return values[k];
  const lo = BigInt(values[2 * k] >>> 0);
  const hi = BigInt(values[2 * k + 1]);
  return (hi << 32n) | lo;
}

function timeToMs(prefix, v, unit) {
  v = BigInt(v);
  switch (unit) {
    case TimeUnit.SECOND: return prefix + (v * 1000n);
    case TimeUnit.MILLISECOND: return prefix + v;
    case TimeUnit.MICROSECOND: return v % 1000n === 0n ? prefix + v / 1000n : `${prefix}${v}@us`;
    default: return v % 1000000n === 0n ? prefix + v / 1000000n : `${prefix}${v}@ns`;
  }
}

// The canonical text of value i of d (an apache-arrow Data).
function canon(d, i) {
  if (!valid(d, i)) return 'null';
  const t = d.type;
  const k = d.offset + i;
  switch (t.typeId) {
    case Type.Bool:
      return String((d.values[k >> 3] >> (k & 7)) & 1);
    case Type.Int:
      return t.bitWidth === 64 ? int64At(d.values, k).toString() : String(d.values[k]);
    case Type.Float:
      return canonDouble(Number(d.values[k]));
    case Type.Utf8:
    case Type.LargeUtf8: {
      const bytes = d.values.subarray(Number(d.valueOffsets[k]), Number(d.valueOffsets[k + 1]));
      return `s${bytes.length}:${decoder.decode(bytes)}`;
    }
    case Type.Binary:
    case Type.LargeBinary:
      return 'x:' + hex(d.values.subarray(Number(d.valueOffsets[k]), Number(d.valueOffsets[k + 1])));
    case Type.Date:
      return t.unit === DateUnit.DAY ? `D:${d.values[k]}` : `D:${int64At(d.values, k)}@ms`;
    case Type.Time:
      return timeToMs('T:', t.bitWidth === 64 ? int64At(d.values, k) : d.values[k], t.unit);
    case Type.Timestamp:
      return timeToMs('TS:', int64At(d.values, k), t.unit);
    case Type.List: {
      const child = d.children[0];
      const start = Number(d.valueOffsets[k]);
      const end = Number(d.valueOffsets[k + 1]);
      const items = [];
      for (let j = start; j < end; j++) items.push(canon(child, j));
      return '[' + items.join(',') + ']';
    }
    case Type.Dictionary:
      return t.indices.bitWidth === 64 ? int64At(d.values, k).toString() : String(d.values[k]);
    default:
      return `?${Type[t.typeId]}`;
  }
}

const known = new Set();
if (process.argv[3] && existsSync(process.argv[3])) {
  for (const line of readFileSync(process.argv[3], 'utf8').split('\n')) if (line) known.add(line);
}

let passed = 0, failed = 0, values = 0, knownCount = 0, reports = 0;
const fail = (msg) => {
  failed++;
  if (reports++ < 50) console.log('FAIL ' + msg);
};
const names = readdirSync(dir).filter((f) => f.endsWith('.expected.jsonl')).sort();
for (const f of names) {
  const name = f.slice(0, -'.expected.jsonl'.length);
  const lines = readFileSync(`${dir}/${f}`, 'utf8').split('\n').filter((l) => l.length);
  const head = JSON.parse(lines[0]);
  const rows = lines.slice(1).map((l) => JSON.parse(l));
  for (const ext of ['arrows', 'arrow']) {
    const path = `${dir}/${name}.${ext}`;
    if (!existsSync(path)) { fail(`${path}: missing`); continue; }
    let table;
    try {
      table = tableFromIPC(readFileSync(path));
    } catch (e) {
      fail(`${path}: apache-arrow refuses it: ${e.message}`);
      continue;
    }
    const fieldNames = table.schema.fields.map((x) => x.name);
    if (JSON.stringify(fieldNames) !== JSON.stringify(head.columns)) {
      fail(`${path}: columns ${fieldNames} but OGR's are ${head.columns}`);
      continue;
    }
    let bad = 0, row = 0;
    for (const batch of table.batches) {
      const n = batch.numRows;
      for (let i = 0; i < n; i++, row++) {
        const want = rows[row];
        if (!want) { bad++; break; }
        for (let c = 0; c < head.columns.length; c++) {
          const got = canon(batch.data.children[c], i);
          const exp = want[c] === null ? 'null' : want[c];
          values++;
          if (got !== exp) {
            if (known.has(`${name}\t${row}\t${c}`)) { knownCount++; continue; }
            bad++;
            if (reports++ < 50) {
              console.log(`FAIL ${path} row ${row} column ${head.columns[c]}: ` +
                `apache-arrow ${got.slice(0, 200)} OGR ${exp.slice(0, 200)}`);
            }
          }
        }
      }
    }
    if (row !== head.rows) {
      bad++;
      if (reports++ < 50) console.log(`FAIL ${path}: ${row} rows, OGR has ${head.rows}`);
    }
    if (bad) failed++; else passed++;
  }
}
console.log(`${names.length} streams, ${passed + failed} IPC files, ${values} values compared, ` +
  `${knownCount} known GDAL mismatches`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
