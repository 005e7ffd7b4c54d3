// Consumer check of this library against GDAL/OGR's Arrow C stream producer
// (OGR_L_GetArrowStream, GDAL >= 3.6).
//
//   gdal_arrow_check OUTDIR [--small]     (run by tools/check-gdal.sh)
//
// 1. Builds OGR datasets under OUTDIR/data (Memory, GPKG, SQLite, FlatGeobuf,
//    GeoJSON, CSV, Shapefile) from one set of source layers covering OGR's field
//    types and subtypes, NULL and unset fields, geometries of every kind.
// 2. Reopens each dataset and reads every layer twice: with OGR's feature API
//    (the reference) and through OGR_L_GetArrowStream with several option sets;
//    each batch is checked with this library (schema views, metadata reader,
//    array views validated at FULL) and every value compared with OGR's.
// 3. Writes every stream as an IPC stream (.arrows) and file (.arrow) with
//    ArrowIpcWriter, plus OGR's values (NAME.expected.jsonl) for an independent
//    reader; reads the IPC stream back with ArrowIpcArrayStreamReader and compares
//    again.
// --small leaves out the 100,000-feature layer (for valgrind).
// Known GDAL bugs (the GDAL version decides; each names its issue or the fact) are
// counted apart and listed in OUTDIR/known.tsv for gdal_arrow_check.mjs:
//   GDAL 3.6 writes every date before 1970 as the next day in date32 columns
//     (OGR's 1950-01-01 is -7305 days since the epoch; GDAL writes -7304);
//   GeoPackage booleans get wrong bits before GDAL 3.8.2 (OSGeo/gdal#8998);
//   an empty FlatGeobuf layer's stream gives zero-length batches without end
//     before GDAL 3.7.3 (OSGeo/gdal#8509).
// Timestamps: GDAL 3.6 writes OGR date-times as time zone naive timestamps (the
// wall clock reading, the TZFlag dropped), which is what is expected here.
// Prints counts; exits non-zero on any other mismatch, GDAL failure or error.
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <cpl_conv.h>
#include <cpl_error.h>
#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include "nanoarrow/nanoarrow.h"
#include "nanoarrow/nanoarrow_ipc.h"

// ---- counters ----
static int64_t n_datasets, n_layers, n_streams, n_batches, n_columns, n_values,
    n_readback_values, n_ipc_files;
static int64_t n_mismatch_value, n_mismatch_schema, n_mismatch_valid, n_mismatch_ipc,
    n_mismatch_rows, n_gdal_fail, n_readback_mismatch;
static int64_t max_reports = 400;
static int64_t n_whole_streams;
static int64_t n_dictionary_values;  // dictionary values compared with the domain's
static GDALDatasetH current_ds;      // the dataset being read (for its field domains)  // streams written by ArrowIpcWriterWriteArrayStream
static int64_t n_known_gdal;  // GDAL's own bugs, known and explained
static long gdal_version;
static int skip_big;    // --small: no layer of more than 1,000 features
static FILE* known_fp;  // OUTDIR/known.tsv: "LABEL<TAB>row<TAB>column" of each     // GDALVersionInfo("VERSION_NUM"), e.g. 3060200

// Mismatch counts by "column: kind".
static struct {
  char key[160];
  int64_t n;
} tallies[512];
static int n_tallies;

// Counts key; returns its count so far.
static int64_t tally(const char* key) {
  for (int i = 0; i < n_tallies; i++) {
    if (strcmp(tallies[i].key, key) == 0) return ++tallies[i].n;
  }
  if (n_tallies == (int)(sizeof(tallies) / sizeof(tallies[0]))) return 1;
  snprintf(tallies[n_tallies].key, sizeof(tallies[n_tallies].key), "%s", key);
  tallies[n_tallies++].n = 1;
  return 1;
}

static const char* report_prefix = "MISMATCH";  // "KNOWN-GDAL" for GDAL's known bugs

static void report(const char* fmt, ...) {
  if (max_reports-- <= 0) return;
  va_list ap;
  va_start(ap, fmt);
  printf("%s ", report_prefix);
  vprintf(fmt, ap);
  fputc('\n', stdout);
  va_end(ap);
}

// ---- growing string ----
struct Str {
  char* p;
  size_t n, cap;
};

static void str_reserve(struct Str* s, size_t more) {
  if (s->n + more + 1 <= s->cap) return;
  size_t cap = s->cap ? s->cap : 64;
  while (cap < s->n + more + 1) cap *= 2;
  s->p = (char*)realloc(s->p, cap);
  if (!s->p) abort();
  s->cap = cap;
}

static void str_mem(struct Str* s, const void* data, size_t len) {
  str_reserve(s, len);
  if (len) memcpy(s->p + s->n, data, len);
  s->n += len;
  s->p[s->n] = '\0';
}

static void str_cat(struct Str* s, const char* z) { str_mem(s, z, strlen(z)); }

static void str_fmt(struct Str* s, const char* fmt, ...) {
  char tmp[128];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
  va_end(ap);
  if (n < 0 || n >= (int)sizeof(tmp)) abort();
  str_mem(s, tmp, (size_t)n);
}

static void str_clear(struct Str* s) {
  s->n = 0;
  if (s->p) s->p[0] = '\0';
}

static void str_hex(struct Str* s, const uint8_t* data, int64_t len) {
  static const char digits[] = "0123456789abcdef";
  str_reserve(s, (size_t)len * 2);
  for (int64_t i = 0; i < len; i++) {
    s->p[s->n++] = digits[data[i] >> 4];
    s->p[s->n++] = digits[data[i] & 15];
  }
  s->p[s->n] = '\0';
}

// A JSON string literal of s (bytes >= 0x80 passed through).
static void str_json(struct Str* out, const char* z, size_t len) {
  str_cat(out, "\"");
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)z[i];
    if (c == '"' || c == '\\') {
      char e[2] = {'\\', (char)c};
      str_mem(out, e, 2);
    } else if (c < 0x20) {
      str_fmt(out, "\\u%04x", c);
    } else {
      str_mem(out, &z[i], 1);
    }
  }
  str_cat(out, "\"");
}

// ---- canonical values ----
// Both sides (Arrow and OGR) produce the same text for the same value:
//   null | decimal integer | f:<16 hex digits of the double's bits> | f:nan |
//   s<byte length>:<bytes> | x:<hex> | D:<days since epoch> | T:<ms of day> |
//   TS:<ms since epoch> | [item,item,...]
static void canon_double(struct Str* s, double d) {
  if (isnan(d)) {
    str_cat(s, "f:nan");
    return;
  }
  uint64_t bits;
  memcpy(&bits, &d, sizeof(bits));
  str_fmt(s, "f:%016" PRIx64, bits);
}

static void canon_string(struct Str* s, const char* z, int64_t len) {
  str_fmt(s, "s%" PRId64 ":", len);
  str_mem(s, z, (size_t)len);
}

// Days since 1970-01-01 of a proleptic Gregorian date.
static int64_t days_from_ymd(int64_t y, int m, int d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t mp = (m + 9) % 12;
  int64_t doy = (153 * mp + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

static void canon_time_unit(struct Str* s, const char* prefix, int64_t v,
                            enum ArrowTimeUnit unit) {
  switch (unit) {
    case NANOARROW_TIME_UNIT_SECOND:
      str_fmt(s, "%s%" PRId64, prefix, v * 1000);
      break;
    case NANOARROW_TIME_UNIT_MILLI:
      str_fmt(s, "%s%" PRId64, prefix, v);
      break;
    case NANOARROW_TIME_UNIT_MICRO:
      if (v % 1000 == 0)
        str_fmt(s, "%s%" PRId64, prefix, v / 1000);
      else
        str_fmt(s, "%s%" PRId64 "@us", prefix, v);
      break;
    case NANOARROW_TIME_UNIT_NANO:
      if (v % 1000000 == 0)
        str_fmt(s, "%s%" PRId64, prefix, v / 1000000);
      else
        str_fmt(s, "%s%" PRId64 "@ns", prefix, v);
      break;
  }
}

// The value at i of view (described by schema) in canonical form; a type this
// check does not know gives "?FORMAT".
static void canon_arrow(struct Str* s, const struct ArrowSchema* schema,
                        const struct ArrowArrayView* v, int64_t i) {
  if (ArrowArrayViewIsNull(v, i)) {
    str_cat(s, "null");
    return;
  }
  struct ArrowSchemaView sv;
  struct ArrowError err;
  if (ArrowSchemaViewInit(&sv, schema, &err) != NANOARROW_OK) {
    str_fmt(s, "?schema");
    return;
  }
  switch (sv.type) {
    case NANOARROW_TYPE_BOOL:
    case NANOARROW_TYPE_INT8:
    case NANOARROW_TYPE_INT16:
    case NANOARROW_TYPE_INT32:
    case NANOARROW_TYPE_INT64:
    case NANOARROW_TYPE_UINT8:
    case NANOARROW_TYPE_UINT16:
    case NANOARROW_TYPE_UINT32:
    case NANOARROW_TYPE_DICTIONARY:
      str_fmt(s, "%" PRId64, ArrowArrayViewGetIntUnsafe(v, i));
      break;
    case NANOARROW_TYPE_UINT64:
      str_fmt(s, "%" PRIu64, ArrowArrayViewGetUIntUnsafe(v, i));
      break;
    case NANOARROW_TYPE_FLOAT:
    case NANOARROW_TYPE_DOUBLE:
      canon_double(s, ArrowArrayViewGetDoubleUnsafe(v, i));
      break;
    case NANOARROW_TYPE_STRING:
    case NANOARROW_TYPE_LARGE_STRING:
    case NANOARROW_TYPE_STRING_VIEW: {
      struct ArrowStringView sv2 = ArrowArrayViewGetStringUnsafe(v, i);
      canon_string(s, sv2.data, sv2.size_bytes);
      break;
    }
    case NANOARROW_TYPE_BINARY:
    case NANOARROW_TYPE_LARGE_BINARY:
    case NANOARROW_TYPE_BINARY_VIEW:
    case NANOARROW_TYPE_FIXED_SIZE_BINARY: {
      struct ArrowBufferView bv = ArrowArrayViewGetBytesUnsafe(v, i);
      str_cat(s, "x:");
      str_hex(s, bv.data.as_uint8, bv.size_bytes);
      break;
    }
    case NANOARROW_TYPE_DATE32:
      str_fmt(s, "D:%" PRId64, ArrowArrayViewGetIntUnsafe(v, i));
      break;
    case NANOARROW_TYPE_DATE64:
      str_fmt(s, "D:%" PRId64 "@ms", ArrowArrayViewGetIntUnsafe(v, i));
      break;
    case NANOARROW_TYPE_TIME32:
    case NANOARROW_TYPE_TIME64:
      canon_time_unit(s, "T:", ArrowArrayViewGetIntUnsafe(v, i), sv.time_unit);
      break;
    case NANOARROW_TYPE_TIMESTAMP:
      canon_time_unit(s, "TS:", ArrowArrayViewGetIntUnsafe(v, i), sv.time_unit);
      break;
    case NANOARROW_TYPE_LIST:
    case NANOARROW_TYPE_LARGE_LIST:
    case NANOARROW_TYPE_FIXED_SIZE_LIST: {
      int64_t start = ArrowArrayViewListChildOffset(v, i);
      int64_t end = ArrowArrayViewListChildOffset(v, i + 1);
      str_cat(s, "[");
      for (int64_t j = start; j < end; j++) {
        if (j > start) str_cat(s, ",");
        canon_arrow(s, schema->children[0], v->children[0], j);
      }
      str_cat(s, "]");
      break;
    }
    default:
      str_fmt(s, "?%s", schema->format);
      break;
  }
}

static int64_t ogr_datetime_ms(int y, int m, int d, int h, int mi, float sec, int tz,
                               int with_date) {
  int64_t ms = (int64_t)h * 3600000 + (int64_t)mi * 60000 + (int64_t)llround(sec * 1000.0);
  if (with_date) ms += days_from_ymd(y, m, d) * 86400000;
  // GDAL 3.6 writes timestamps without a time zone, as wall clock values (the Arrow
  // format's "time zone naive" timestamps): the TZFlag is not applied.
  (void)tz;
  return ms;
}

// The value of field i of f in canonical form.
static void canon_ogr_field(struct Str* s, OGRFeatureH f, int i, OGRFieldDefnH fd) {
  if (!OGR_F_IsFieldSetAndNotNull(f, i)) {
    str_cat(s, "null");
    return;
  }
  OGRFieldType type = OGR_Fld_GetType(fd);
  OGRFieldSubType sub = OGR_Fld_GetSubType(fd);
  switch (type) {
    case OFTInteger:
      str_fmt(s, "%d", OGR_F_GetFieldAsInteger(f, i));
      break;
    case OFTInteger64:
      str_fmt(s, "%lld", (long long)OGR_F_GetFieldAsInteger64(f, i));
      break;
    case OFTReal: {
      double d = OGR_F_GetFieldAsDouble(f, i);
      if (sub == OFSTFloat32) d = (double)(float)d;
      canon_double(s, d);
      break;
    }
    case OFTString: {
      const char* z = OGR_F_GetFieldAsString(f, i);
      canon_string(s, z, (int64_t)strlen(z));
      break;
    }
    case OFTBinary: {
      int n = 0;
      const GByte* b = OGR_F_GetFieldAsBinary(f, i, &n);
      str_cat(s, "x:");
      str_hex(s, b, n);
      break;
    }
    case OFTDate:
    case OFTTime:
    case OFTDateTime: {
      int y, m, d, h, mi, tz;
      float sec;
      if (!OGR_F_GetFieldAsDateTimeEx(f, i, &y, &m, &d, &h, &mi, &sec, &tz)) {
        str_cat(s, "?datetime");
      } else if (type == OFTDate) {
        str_fmt(s, "D:%" PRId64, days_from_ymd(y, m, d));
      } else if (type == OFTTime) {
        str_fmt(s, "T:%" PRId64, ogr_datetime_ms(y, m, d, h, mi, sec, 0, 0));
      } else {
        str_fmt(s, "TS:%" PRId64, ogr_datetime_ms(y, m, d, h, mi, sec, tz, 1));
      }
      break;
    }
    case OFTIntegerList: {
      int n = 0;
      const int* v = OGR_F_GetFieldAsIntegerList(f, i, &n);
      str_cat(s, "[");
      for (int j = 0; j < n; j++) str_fmt(s, j ? ",%d" : "%d", v[j]);
      str_cat(s, "]");
      break;
    }
    case OFTInteger64List: {
      int n = 0;
      const GIntBig* v = OGR_F_GetFieldAsInteger64List(f, i, &n);
      str_cat(s, "[");
      for (int j = 0; j < n; j++) str_fmt(s, j ? ",%lld" : "%lld", (long long)v[j]);
      str_cat(s, "]");
      break;
    }
    case OFTRealList: {
      int n = 0;
      const double* v = OGR_F_GetFieldAsDoubleList(f, i, &n);
      str_cat(s, "[");
      for (int j = 0; j < n; j++) {
        if (j) str_cat(s, ",");
        canon_double(s, sub == OFSTFloat32 ? (double)(float)v[j] : v[j]);
      }
      str_cat(s, "]");
      break;
    }
    case OFTStringList: {
      char** v = OGR_F_GetFieldAsStringList(f, i);
      str_cat(s, "[");
      for (int j = 0; v && v[j]; j++) {
        if (j) str_cat(s, ",");
        canon_string(s, v[j], (int64_t)strlen(v[j]));
      }
      str_cat(s, "]");
      break;
    }
    default:
      str_fmt(s, "?ogrtype%d", (int)type);
      break;
  }
}

static void canon_ogr_geom(struct Str* s, OGRFeatureH f, int g) {
  OGRGeometryH geom = OGR_F_GetGeomFieldRef(f, g);
  if (!geom) {
    str_cat(s, "null");
    return;
  }
  size_t n = OGR_G_WkbSizeEx(geom);
  unsigned char* buf = (unsigned char*)malloc(n ? n : 1);
  if (OGR_G_ExportToIsoWkb(geom, wkbNDR, buf) != OGRERR_NONE) {
    str_cat(s, "?wkb");
  } else {
    str_cat(s, "x:");
    str_hex(s, buf, (int64_t)n);
  }
  free(buf);
}

// ---- one stream ----
// The stream's columns: the FID (when included), the attribute fields, then the
// geometry fields, leaving out those the layer ignores (OGR_L_SetIgnoredFields).
struct Layout {
  int include_fid;
  int n_fields, n_geoms;
  int64_t n_columns;
  int cols[512];  // -1: the FID; 0..n_fields-1: a field; n_fields + g: geometry g
};

static const char* fid_name(OGRLayerH lyr) {
  const char* z = OGR_L_GetFIDColumn(lyr);
  return (z && *z) ? z : "OGC_FID";
}

static const char* geom_name(OGRFeatureDefnH defn, int g) {
  const char* z = OGR_GFld_GetNameRef(OGR_FD_GetGeomFieldDefn(defn, g));
  return (z && *z) ? z : "wkb_geometry";
}

static const char* column_name(OGRLayerH lyr, OGRFeatureDefnH defn,
                               const struct Layout* lay, int64_t c) {
  int k = lay->cols[c];
  if (k < 0) return fid_name(lyr);
  if (k < lay->n_fields) return OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(defn, k));
  return geom_name(defn, k - lay->n_fields);
}

// The canonical value of column c of feature f (OGR side).
static void canon_ogr_column(struct Str* s, OGRFeatureDefnH defn, const struct Layout* lay,
                             OGRFeatureH f, int64_t c) {
  int k = lay->cols[c];
  if (k < 0) {
    str_fmt(s, "%lld", (long long)OGR_F_GetFID(f));
  } else if (k < lay->n_fields) {
    canon_ogr_field(s, f, k, OGR_FD_GetFieldDefn(defn, k));
  } else {
    canon_ogr_geom(s, f, k - lay->n_fields);
  }
}

// A dictionary-encoded column (GDAL: a field with a coded domain; its index is the
// code): the dictionary's value at index i must be the domain's value of that code.
static void check_dictionary_value(const char* label, const char* what,
                                   const struct ArrowSchema* schema,
                                   const struct ArrowArrayView* view, int64_t i,
                                   OGRFeatureDefnH defn, const struct Layout* lay,
                                   int64_t c) {
  int64_t field = lay->cols[c];
  if (!current_ds || field < 0 || field >= lay->n_fields) return;
  const char* domain_name =
      OGR_Fld_GetDomainName(OGR_FD_GetFieldDefn(defn, (int)field));
  OGRFieldDomainH domain =
      domain_name && *domain_name ? GDALDatasetGetFieldDomain(current_ds, domain_name) : NULL;
  if (!domain || OGR_FldDomain_GetDomainType(domain) != OFDT_CODED) return;
  int64_t index = ArrowArrayViewGetIntUnsafe(view, i);
  char code[32];
  snprintf(code, sizeof(code), "%" PRId64, index);
  struct Str want = {0}, got = {0};
  str_cat(&want, "?not a code");
  for (const OGRCodedValue* v = OGR_CodedFldDomain_GetEnumeration(domain); v && v->pszCode;
       v++) {
    if (strcmp(v->pszCode, code) == 0) {
      str_clear(&want);
      if (v->pszValue)
        canon_string(&want, v->pszValue, (int64_t)strlen(v->pszValue));
      else
        str_cat(&want, "null");
    }
  }
  n_dictionary_values++;
  if (index < 0 || index >= view->dictionary->length) {
    str_cat(&got, "?index out of the dictionary");
  } else {
    canon_arrow(&got, schema->dictionary, view->dictionary, index);
  }
  if (strcmp(got.p, want.p) != 0) {
    n_mismatch_value++;
    report("%s [%s] dictionary of %s at %" PRId64 ": %s, the domain's value %s", label, what,
           schema->name, index, got.p, want.p);
  }
  free(want.p);
  free(got.p);
}

// Compares every value of batch (rows base.. of feats); returns mismatches.
static int64_t compare_batch(const char* label, const char* what,
                             const struct ArrowSchema* schema,
                             const struct ArrowArrayView* view, OGRFeatureH* feats,
                             int64_t n_feats, int64_t base, OGRFeatureDefnH defn,
                             const struct Layout* lay, int64_t* counter) {
  struct Str a = {0}, o = {0};
  int64_t bad = 0;
  for (int64_t i = 0; i < view->length; i++) {
    if (base + i >= n_feats) {
      report("%s [%s] row %" PRId64 ": more rows than OGR's %" PRId64 " features", label,
             what, base + i, n_feats);
      bad++;
      break;
    }
    for (int64_t c = 0; c < lay->n_columns && c < view->n_children; c++) {
      str_clear(&a);
      str_clear(&o);
      canon_arrow(&a, schema->children[c], view->children[c], i);
      canon_ogr_column(&o, defn, lay, feats[base + i], c);
      (*counter)++;
      if (view->children[c]->dictionary && !ArrowArrayViewIsNull(view->children[c], i))
        check_dictionary_value(label, what, schema->children[c], view->children[c], i,
                               defn, lay, c);
      if (a.n != o.n || memcmp(a.p, o.p, a.n) != 0) {
        char key[160];
        long long x, y;
        const char* kind = "value";
        if (sscanf(a.p, "D:%lld", &x) == 1 && sscanf(o.p, "D:%lld", &y) == 1 &&
            x - y == 1 && y < 0 && gdal_version < 3080000) {
          // GDAL 3.6 writes a date32 one day late for every date before 1970.
          kind = "known GDAL 3.6: date before 1970 one day late";
        } else if (strcmp(schema->children[c]->format, "b") == 0 &&
                   strncmp(label, "GPKG", 4) == 0 && gdal_version < 3080200) {
          // OSGeo/gdal#8998, fixed in 3.8.2: GeoPackage booleans set the wrong bits.
          kind = "known GDAL < 3.8.2: GeoPackage boolean bits (OSGeo/gdal#8998)";
        }
        if (strncmp(kind, "known", 5) == 0) {
          n_known_gdal++;
          if (known_fp && strcmp(what, "gdal") == 0)
            fprintf(known_fp, "%s\t%" PRId64 "\t%" PRId64 "\n", label, base + i, c);
        } else
          bad++;
        int tag_len = (int)strcspn(label, ".");
        snprintf(key, sizeof(key), "%s %.*s %s %s: %s", what, tag_len > 40 ? 40 : tag_len,
                 label, schema->children[c]->name, schema->children[c]->format, kind);
        if (tally(key) <= 3) {
          if (strncmp(kind, "known", 5) == 0) report_prefix = "KNOWN-GDAL";
          report("%s [%s] row %" PRId64 " column %" PRId64 " (%s, %s): arrow %.300s ogr %.300s",
               label, what, base + i, c, schema->children[c]->name,
               schema->children[c]->format, a.p, o.p);
          report_prefix = "MISMATCH";
        }
      }
    }
  }
  free(a.p);
  free(o.p);
  return bad;
}

// Checks every field of schema (recursively) with ArrowSchemaViewInit, reads its
// metadata with ArrowMetadataReader; appends "name:format{k=v}" lines to desc.
static int check_schema_tree(const struct ArrowSchema* schema, struct Str* desc, int depth) {
  struct ArrowSchemaView sv;
  struct ArrowError err;
  int bad = 0;
  if (ArrowSchemaViewInit(&sv, schema, &err) != NANOARROW_OK) {
    report("ArrowSchemaViewInit(%s, %s): %s", schema->name ? schema->name : "",
           schema->format, err.message);
    bad++;
  }
  for (int k = 0; k < depth; k++) str_cat(desc, "  ");
  str_fmt(desc, "%.60s: %.40s", schema->name ? schema->name : "", schema->format);
  if (schema->flags & ARROW_FLAG_NULLABLE) str_cat(desc, " nullable");
  if (schema->metadata) {
    struct ArrowMetadataReader reader;
    if (ArrowMetadataReaderInit(&reader, schema->metadata) != NANOARROW_OK) {
      report("ArrowMetadataReaderInit on %s failed", schema->name);
      bad++;
    } else {
      struct ArrowStringView k, v;
      while (reader.remaining_keys > 0) {
        if (ArrowMetadataReaderRead(&reader, &k, &v) != NANOARROW_OK) {
          report("ArrowMetadataReaderRead on %s failed", schema->name);
          bad++;
          break;
        }
        str_cat(desc, " {");
        str_mem(desc, k.data, (size_t)k.size_bytes);
        str_cat(desc, "=");
        str_mem(desc, v.data, (size_t)(v.size_bytes > 80 ? 80 : v.size_bytes));
        str_cat(desc, "}");
      }
    }
  }
  str_cat(desc, "\n");
  for (int64_t c = 0; c < schema->n_children; c++)
    bad += check_schema_tree(schema->children[c], desc, depth + 1);
  if (schema->dictionary) bad += check_schema_tree(schema->dictionary, desc, depth + 1);
  return bad;
}

static FILE* open_or_die(const char* path, const char* mode) {
  FILE* fp = fopen(path, mode);
  if (!fp) {
    fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
    exit(2);
  }
  return fp;
}

static int writer_open(struct ArrowIpcWriter* w, const char* path, int file_format) {
  struct ArrowIpcOutputStream out;
  struct ArrowError err;
  FILE* fp = open_or_die(path, "wb");
  if (ArrowIpcOutputStreamInitFile(&out, fp, 1) != NANOARROW_OK) abort();
  if (ArrowIpcWriterInit(w, &out) != NANOARROW_OK) abort();
  if (file_format && ArrowIpcWriterStartFile(w, &err) != NANOARROW_OK) {
    report("ArrowIpcWriterStartFile %s: %s", path, err.message);
    return 1;
  }
  return 0;
}

// Reads the IPC stream at path back with this library's reader; compares.
static void read_back(const char* path, const char* label, OGRFeatureH* feats,
                      int64_t n_feats, OGRFeatureDefnH defn, const struct Layout* lay) {
  struct ArrowIpcInputStream in;
  struct ArrowArrayStream stream;
  struct ArrowSchema schema;
  struct ArrowError err;
  FILE* fp = open_or_die(path, "rb");
  if (ArrowIpcInputStreamInitFile(&in, fp, 1) != NANOARROW_OK) abort();
  if (ArrowIpcArrayStreamReaderInit(&stream, &in, NULL) != NANOARROW_OK) abort();
  if (stream.get_schema(&stream, &schema) != 0) {
    report("%s read back: get_schema: %s", label, stream.get_last_error(&stream));
    n_readback_mismatch++;
    stream.release(&stream);
    return;
  }
  int64_t base = 0;
  for (;;) {
    struct ArrowArray array;
    if (stream.get_next(&stream, &array) != 0) {
      report("%s read back: get_next: %s", label, stream.get_last_error(&stream));
      n_readback_mismatch++;
      break;
    }
    if (!array.release) break;
    struct ArrowArrayView view;
    if (ArrowArrayViewInitFromSchema(&view, &schema, &err) != NANOARROW_OK ||
        ArrowArrayViewSetArray(&view, &array, &err) != NANOARROW_OK) {
      report("%s read back: view: %s", label, err.message);
      n_readback_mismatch++;
    } else {
      n_readback_mismatch += compare_batch(label, "read back", &schema, &view, feats,
                                           n_feats, base, defn, lay, &n_readback_values);
      base += view.length;
    }
    ArrowArrayViewReset(&view);
    array.release(&array);
  }
  if (base != n_feats) {
    report("%s read back: %" PRId64 " rows, OGR has %" PRId64, label, base, n_feats);
    n_readback_mismatch++;
  }
  schema.release(&schema);
  stream.release(&stream);
}

// Writes a fresh stream of lyr (options) with ArrowIpcWriterWriteArrayStream into
// memory; it must be byte for byte the IPC stream written batch by batch at path.
static void write_whole_stream(const char* label, OGRLayerH lyr, char** options,
                               const char* path) {
  struct ArrowArrayStream stream;
  struct ArrowBuffer out;
  struct ArrowIpcOutputStream os;
  struct ArrowIpcWriter w;
  struct ArrowError err;
  memset(&stream, 0, sizeof(stream));
  OGR_L_ResetReading(lyr);
  if (!OGR_L_GetArrowStream(lyr, &stream, options)) {
    printf("GDAL-FAIL %s: OGR_L_GetArrowStream (second): %s\n", label, CPLGetLastErrorMsg());
    n_gdal_fail++;
    return;
  }
  ArrowBufferInit(&out);
  if (ArrowIpcOutputStreamInitBuffer(&os, &out) != NANOARROW_OK ||
      ArrowIpcWriterInit(&w, &os) != NANOARROW_OK)
    abort();
  n_whole_streams++;
  if (ArrowIpcWriterWriteArrayStream(&w, &stream, &err) != NANOARROW_OK) {
    report("%s: ArrowIpcWriterWriteArrayStream: %s", label, err.message);
    n_mismatch_ipc++;
  } else {
    FILE* fp = open_or_die(path, "rb");
    int64_t i = 0;
    int ch, same = 1;
    while ((ch = fgetc(fp)) != EOF) {
      if (i >= out.size_bytes || out.data[i] != (uint8_t)ch) {
        same = 0;
        break;
      }
      i++;
    }
    fclose(fp);
    if (!same || i != out.size_bytes) {
      report("%s: ArrowIpcWriterWriteArrayStream wrote %" PRId64
             " bytes, not those of the batch by batch stream %s (differs at %" PRId64 ")",
             label, out.size_bytes, path, i);
      n_mismatch_ipc++;
    }
  }
  ArrowIpcWriterReset(&w);
  ArrowBufferReset(&out);
  if (stream.release) stream.release(&stream);
}

static void check_stream(const char* outdir, const char* label, OGRLayerH lyr,
                         char** options, int include_fid, int max_batch) {
  clock_t t0 = clock();
  int64_t batches0 = n_batches;
  OGRFeatureDefnH defn = OGR_L_GetLayerDefn(lyr);
  struct Layout lay;
  lay.include_fid = include_fid;
  lay.n_fields = OGR_FD_GetFieldCount(defn);
  lay.n_geoms = OGR_FD_GetGeomFieldCount(defn);
  lay.n_columns = 0;
  if (include_fid) lay.cols[lay.n_columns++] = -1;
  for (int k = 0; k < lay.n_fields && lay.n_columns < 510; k++)
    if (!OGR_Fld_IsIgnored(OGR_FD_GetFieldDefn(defn, k))) lay.cols[lay.n_columns++] = k;
  for (int g = 0; g < lay.n_geoms && lay.n_columns < 512; g++)
    if (!OGR_GFld_IsIgnored(OGR_FD_GetGeomFieldDefn(defn, g)))
      lay.cols[lay.n_columns++] = lay.n_fields + g;

  // OGR's view first (the stream and GetNextFeature share the layer's cursor).
  int64_t n_feats = 0, cap = 1024;
  OGRFeatureH* feats = (OGRFeatureH*)malloc(sizeof(OGRFeatureH) * (size_t)cap);
  OGR_L_ResetReading(lyr);
  OGRFeatureH f;
  while ((f = OGR_L_GetNextFeature(lyr)) != NULL) {
    if (n_feats == cap) {
      cap *= 2;
      feats = (OGRFeatureH*)realloc(feats, sizeof(OGRFeatureH) * (size_t)cap);
    }
    feats[n_feats++] = f;
  }
  OGR_L_ResetReading(lyr);

  n_streams++;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof(stream));
  if (!OGR_L_GetArrowStream(lyr, &stream, options)) {
    printf("GDAL-FAIL %s: OGR_L_GetArrowStream: %s\n", label, CPLGetLastErrorMsg());
    n_gdal_fail++;
    goto done_feats;
  }

  struct ArrowSchema schema;
  struct ArrowError err;
  if (stream.get_schema(&stream, &schema) != 0) {
    printf("GDAL-FAIL %s: get_schema: %s\n", label, stream.get_last_error(&stream));
    n_gdal_fail++;
    stream.release(&stream);
    goto done_feats;
  }

  char text[4096];
  ArrowSchemaToString(&schema, text, sizeof(text), 1);
  struct Str desc = {0};
  n_mismatch_schema += check_schema_tree(&schema, &desc, 0);
  printf("STREAM %s: %" PRId64 " features; %s\n%s", label, n_feats, text, desc.p);
  free(desc.p);

  // Columns: FID (when included), attribute fields, geometry fields.
  if (strcmp(schema.format, "+s") != 0 || schema.n_children != lay.n_columns) {
    report("%s: schema %s with %" PRId64 " children, expected +s with %" PRId64, label,
           schema.format, schema.n_children, lay.n_columns);
    n_mismatch_schema++;
  }
  for (int64_t c = 0; c < schema.n_children && c < lay.n_columns; c++) {
    const char* want = column_name(lyr, defn, &lay, c);
    if (lay.cols[c] >= lay.n_fields) {
      const char* ext = NULL;
      struct ArrowStringView value;
      if (schema.children[c]->metadata &&
          ArrowMetadataGetValue(schema.children[c]->metadata,
                                ArrowCharView("ARROW:extension:name"),
                                &value) == NANOARROW_OK &&
          value.data) {
        ext = value.data;
      }
      if (!ext) {
        report("%s: geometry column %s has no ARROW:extension:name", label, want);
        n_mismatch_schema++;
      }
    }
    if (strcmp(schema.children[c]->name ? schema.children[c]->name : "", want) != 0) {
      report("%s: column %" PRId64 " named %s, OGR's is %s", label, c,
             schema.children[c]->name, want);
      n_mismatch_schema++;
    }
  }
  n_columns += schema.n_children;

  char path_stream[4096], path_file[4096], path_expected[4096];
  snprintf(path_stream, sizeof(path_stream), "%s/ipc/%s.arrows", outdir, label);
  snprintf(path_file, sizeof(path_file), "%s/ipc/%s.arrow", outdir, label);
  snprintf(path_expected, sizeof(path_expected), "%s/ipc/%s.expected.jsonl", outdir, label);
  struct ArrowIpcWriter ws, wf;
  int ipc_ok = writer_open(&ws, path_stream, 0) == 0 && writer_open(&wf, path_file, 1) == 0;
  if (ipc_ok && (ArrowIpcWriterWriteSchema(&ws, &schema, &err) != NANOARROW_OK ||
                 ArrowIpcWriterWriteSchema(&wf, &schema, &err) != NANOARROW_OK)) {
    report("%s: ArrowIpcWriterWriteSchema: %s", label, err.message);
    n_mismatch_ipc++;
    ipc_ok = 0;
  }

  FILE* exp = open_or_die(path_expected, "wb");
  {
    struct Str line = {0};
    str_cat(&line, "{\"columns\":[");
    for (int64_t c = 0; c < lay.n_columns; c++) {
      const char* name = column_name(lyr, defn, &lay, c);
      if (c) str_cat(&line, ",");
      str_json(&line, name, strlen(name));
    }
    str_fmt(&line, "],\"rows\":%" PRId64 "}\n", n_feats);
    fwrite(line.p, 1, line.n, exp);
    str_clear(&line);
    for (int64_t r = 0; r < n_feats; r++) {
      str_cat(&line, "[");
      for (int64_t c = 0; c < lay.n_columns; c++) {
        struct Str v = {0};
        canon_ogr_column(&v, defn, &lay, feats[r], c);
        if (c) str_cat(&line, ",");
        if (strcmp(v.p, "null") == 0)
          str_cat(&line, "null");
        else
          str_json(&line, v.p, v.n);
        free(v.p);
      }
      str_cat(&line, "]\n");
      fwrite(line.p, 1, line.n, exp);
      str_clear(&line);
    }
    free(line.p);
  }
  fclose(exp);

  int64_t base = 0, empty_batches = 0;
  for (;;) {
    struct ArrowArray array;
    memset(&array, 0, sizeof(array));
    int rc = stream.get_next(&stream, &array);
    if (rc != 0) {
      printf("GDAL-FAIL %s: get_next: %d %s\n", label, rc, stream.get_last_error(&stream));
      n_gdal_fail++;
      break;
    }
    if (!array.release) break;
    n_batches++;
    // A producer that never ends (zero-length batches forever) is cut off.
    if (array.length == 0 && ++empty_batches > 100) {
      int known = strncmp(label, "FlatGeobuf", 10) == 0 && base == 0 && gdal_version < 3070300;
      printf("%s %s: more than 100 batches of length 0 after %" PRId64
             " rows (the stream does not end)\n", known ? "KNOWN-GDAL" : "GDAL-FAIL", label,
             base);
      if (known) {
        // OSGeo/gdal#8509 (fixed in 3.7.3): an empty FlatGeobuf layer's stream
        // returns zero-length batches and never ends.
        n_known_gdal++;
        tally("known GDAL < 3.7.3: empty FlatGeobuf layer, endless zero-length batches "
              "(OSGeo/gdal#8509)");
      } else {
        n_gdal_fail++;
        tally("gdal: zero-length batches without end");
      }
      array.release(&array);
      break;
    }
    if (max_batch > 0 && array.length > max_batch) {
      report("%s: batch of %" PRId64 " rows, MAX_FEATURES_IN_BATCH=%d", label, array.length,
             max_batch);
      n_mismatch_rows++;
    }
    const char* dump = getenv("GAC_DUMP");  // "LABEL:COLUMN": its raw buffers
    if (dump) {
      for (int64_t c = 0; c < array.n_children; c++) {
        char want[600];
        snprintf(want, sizeof(want), "%s:%s", label, schema.children[c]->name);
        if (strcmp(want, dump) != 0) continue;
        const struct ArrowArray* ch = array.children[c];
        printf("DUMP %s length %" PRId64 " offset %" PRId64 " null_count %" PRId64 "\n", want,
               ch->length, ch->offset, ch->null_count);
        for (int64_t b = 0; b < ch->n_buffers; b++) {
          printf("  buffer %" PRId64 ":", b);
          const uint8_t* p = (const uint8_t*)ch->buffers[b];
          for (int64_t k = 0; p && k < (ch->offset + ch->length + 7) / 8 && k < 64; k++)
            printf(" %02x", p[k]);
          printf("\n");
        }
      }
    }
    struct ArrowArrayView view;
    if (ArrowArrayViewInitFromSchema(&view, &schema, &err) != NANOARROW_OK) {
      report("%s: ArrowArrayViewInitFromSchema: %s", label, err.message);
      n_mismatch_valid++;
      array.release(&array);
      break;
    }
    if (ArrowArrayViewSetArray(&view, &array, &err) != NANOARROW_OK ||
        ArrowArrayViewValidate(&view, NANOARROW_VALIDATION_LEVEL_FULL, &err) !=
            NANOARROW_OK) {
      report("%s: batch %" PRId64 " does not validate: %s", label, n_batches, err.message);
      n_mismatch_valid++;
    } else {
      for (int64_t c = 0; base == 0 && c < view.n_children; c++) {
        const struct ArrowArrayView* dict = view.children[c]->dictionary;
        if (!dict) continue;
        struct Str d = {0};
        for (int64_t k = 0; k < dict->length; k++) {
          if (k) str_cat(&d, ",");
          canon_arrow(&d, schema.children[c]->dictionary, dict, k);
        }
        printf("DICTIONARY %s %s: [%s]\n", label, schema.children[c]->name, d.p ? d.p : "");
        free(d.p);
      }
      n_mismatch_value += compare_batch(label, "gdal", &schema, &view, feats, n_feats, base,
                                        defn, &lay, &n_values);
      if (ipc_ok && (ArrowIpcWriterWriteArrayView(&ws, &view, &err) != NANOARROW_OK ||
                     ArrowIpcWriterWriteArrayView(&wf, &view, &err) != NANOARROW_OK)) {
        report("%s: ArrowIpcWriterWriteArrayView: %s", label, err.message);
        n_mismatch_ipc++;
        ipc_ok = 0;
      }
      base += view.length;
    }
    ArrowArrayViewReset(&view);
    array.release(&array);
  }
  if (base != n_feats) {
    report("%s: the stream has %" PRId64 " rows, OGR %" PRId64 " features", label, base,
           n_feats);
    n_mismatch_rows++;
  }
  if (ipc_ok && (ArrowIpcWriterWriteArrayView(&ws, NULL, &err) != NANOARROW_OK ||
                 ArrowIpcWriterFinalizeFile(&wf, &err) != NANOARROW_OK)) {
    report("%s: finishing the IPC output: %s", label, err.message);
    n_mismatch_ipc++;
    ipc_ok = 0;
  }
  ArrowIpcWriterReset(&ws);
  ArrowIpcWriterReset(&wf);
  if (ipc_ok) {
    n_ipc_files += 2;
    read_back(path_stream, label, feats, n_feats, defn, &lay);
  }
  schema.release(&schema);
  stream.release(&stream);
  // Once per layer (with the default options) the whole stream again, through
  // ArrowIpcWriterWriteArrayStream (not for the endless empty FlatGeobuf streams).
  if (ipc_ok && options[0] == NULL &&
      !(strncmp(label, "FlatGeobuf", 10) == 0 && n_feats == 0 && gdal_version < 3070300))
    write_whole_stream(label, lyr, options, path_stream);

done_feats:
  for (int64_t r = 0; r < n_feats; r++) OGR_F_Destroy(feats[r]);
  free(feats);
  printf("DONE %s: %" PRId64 " rows, %" PRId64 " batches, %.2f s\n", label, n_feats,
         n_batches - batches0, (double)(clock() - t0) / CLOCKS_PER_SEC);
}

// ---- source data ----
enum {
  F_INT, F_INT16, F_BOOL, F_INT64, F_REAL, F_FLOAT32, F_STR, F_JSON, F_UUID, F_BIN,
  F_DATE, F_TIME, F_DATETIME, F_INTLIST, F_INT64LIST, F_REALLIST, F_STRLIST, F_BOOLLIST,
  F_INT16LIST, F_FLOAT32LIST, F_CODED, F_COUNT
};

static void add_field(OGRLayerH lyr, const char* name, OGRFieldType t, OGRFieldSubType st) {
  OGRFieldDefnH fd = OGR_Fld_Create(name, t);
  OGR_Fld_SetSubType(fd, st);
  if (OGR_L_CreateField(lyr, fd, TRUE) != OGRERR_NONE) {
    fprintf(stderr, "CreateField %s failed\n", name);
    exit(2);
  }
  OGR_Fld_Destroy(fd);
}

static OGRFieldDomainH make_domain(void) {
  OGRCodedValue values[] = {{(char*)"1", (char*)"one"},
                            {(char*)"2", (char*)"two"},
                            {(char*)"3", NULL},
                            {NULL, NULL}};
  return OGR_CodedFldDomain_Create("coded_domain", "codes", OFTInteger, OFSTNone, values);
}

static void add_all_fields(OGRLayerH lyr) {
  add_field(lyr, "f_int", OFTInteger, OFSTNone);
  add_field(lyr, "f_int16", OFTInteger, OFSTInt16);
  add_field(lyr, "f_bool", OFTInteger, OFSTBoolean);
  add_field(lyr, "f_int64", OFTInteger64, OFSTNone);
  add_field(lyr, "f_real", OFTReal, OFSTNone);
  add_field(lyr, "f_float32", OFTReal, OFSTFloat32);
  add_field(lyr, "f_str", OFTString, OFSTNone);
  add_field(lyr, "f_json", OFTString, OFSTJSON);
  add_field(lyr, "f_uuid", OFTString, OFSTUUID);
  add_field(lyr, "f_bin", OFTBinary, OFSTNone);
  add_field(lyr, "f_date", OFTDate, OFSTNone);
  add_field(lyr, "f_time", OFTTime, OFSTNone);
  add_field(lyr, "f_datetime", OFTDateTime, OFSTNone);
  add_field(lyr, "f_intlist", OFTIntegerList, OFSTNone);
  add_field(lyr, "f_int64list", OFTInteger64List, OFSTNone);
  add_field(lyr, "f_reallist", OFTRealList, OFSTNone);
  add_field(lyr, "f_strlist", OFTStringList, OFSTNone);
  add_field(lyr, "f_boollist", OFTIntegerList, OFSTBoolean);
  add_field(lyr, "f_int16list", OFTIntegerList, OFSTInt16);
  add_field(lyr, "f_float32list", OFTRealList, OFSTFloat32);
  OGRFieldDefnH fd = OGR_Fld_Create("f_coded", OFTInteger);
  OGR_Fld_SetDomainName(fd, "coded_domain");
  if (OGR_L_CreateField(lyr, fd, TRUE) != OGRERR_NONE) exit(2);
  OGR_Fld_Destroy(fd);
}

static const char* k_wkts[] = {
    "POINT (1 2)",
    "POINT EMPTY",
    "POINT Z (1 2 3)",
    "POINT M (1 2 4)",
    "POINT ZM (1 2 3 4)",
    "LINESTRING (0 0,1 1,2 0)",
    "LINESTRING EMPTY",
    "LINESTRING Z (0 0 1,1 1 2)",
    "POLYGON ((0 0,10 0,10 10,0 10,0 0),(1 1,2 1,2 2,1 1))",
    "POLYGON EMPTY",
    "POLYGON ZM ((0 0 1 2,1 0 1 2,1 1 1 2,0 0 1 2))",
    "MULTIPOINT ((1 2),(3 4))",
    "MULTIPOINT EMPTY",
    "MULTILINESTRING ((0 0,1 1),(2 2,3 3))",
    "MULTIPOLYGON (((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5)))",
    "MULTIPOLYGON EMPTY",
    "GEOMETRYCOLLECTION (POINT (1 1),LINESTRING (0 0,1 1))",
    "GEOMETRYCOLLECTION EMPTY",
    "CIRCULARSTRING (0 0,1 1,2 0)",
    "COMPOUNDCURVE ((0 0,1 1),CIRCULARSTRING (1 1,2 2,3 1))",
    "CURVEPOLYGON (CIRCULARSTRING (0 0,2 0,0 0))",
    "MULTICURVE ((0 0,1 1),CIRCULARSTRING (1 1,2 2,3 1))",
    "MULTISURFACE (((0 0,1 0,1 1,0 0)))",
    "TRIANGLE ((0 0,1 0,0 1,0 0))",
    "TIN (((0 0 0,1 0 0,0 1 0,0 0 0)))",
    "POLYHEDRALSURFACE Z (((0 0 0,1 0 0,0 1 0,0 0 0)))",
    "POINT (1e300 -1e-300)",
    NULL, /* NULL geometry */
};
#define N_WKTS ((int)(sizeof(k_wkts) / sizeof(k_wkts[0])))

static const char* k_strings[] = {
    "",
    "plain",
    "unicode: \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xe4\xb8\xad\xe6\x96\x87",
    "quote \" backslash \\ comma , newline \n tab \t",
    "a long string a long string a long string a long string a long string a long string",
};
#define N_STRINGS ((int)(sizeof(k_strings) / sizeof(k_strings[0])))

// Sets the fields of f from row r (r spans many combinations; some rows leave
// fields unset, some set them NULL).
static void fill_all_fields(OGRFeatureH f, int r) {
  static const int ints[] = {0, 1, -1, 2147483647, -2147483647 - 1, 42};
  static const GIntBig int64s[] = {0, 1, -1, INT64_MAX, INT64_MIN, 4294967296LL};
  const double reals[] = {0.0, -0.0, 1.5, -1e308, 5e-324, 3.141592653589793,
                          HUGE_VAL, -HUGE_VAL, NAN, 1e-7};
  int nreals = (int)(sizeof(reals) / sizeof(reals[0]));
  int mode = r % 7;  // 0: all unset, 1: all NULL, else values
  if (mode == 0) return;
  if (mode == 1) {
    for (int i = 0; i < F_COUNT; i++) OGR_F_SetFieldNull(f, i);
    return;
  }
  OGR_F_SetFieldInteger(f, F_INT, ints[r % 6]);
  OGR_F_SetFieldInteger(f, F_INT16, (r % 2) ? 32767 : -32768 + r);
  OGR_F_SetFieldInteger(f, F_BOOL, r % 2);
  OGR_F_SetFieldInteger64(f, F_INT64, int64s[r % 6]);
  OGR_F_SetFieldDouble(f, F_REAL, reals[r % nreals]);
  OGR_F_SetFieldDouble(f, F_FLOAT32, r % 3 == 0 ? 0.1 : (r % 3 == 1 ? 3.4e38 : -1.25));
  OGR_F_SetFieldString(f, F_STR, k_strings[r % N_STRINGS]);
  OGR_F_SetFieldString(f, F_JSON, r % 2 ? "{\"a\": [1, 2, \"\xc3\xa9\"]}" : "[]");
  OGR_F_SetFieldString(f, F_UUID, "01234567-89ab-cdef-0123-456789abcdef");
  {
    GByte bin[40];
    int nb = (r * 7) % 40;
    for (int i = 0; i < nb; i++) bin[i] = (GByte)(i * 37 + r);
    OGR_F_SetFieldBinary(f, F_BIN, nb, bin);
  }
  {
    static const int years[] = {1970, 1969, 2000, 1, 9999, 2024, 1900};
    int y = years[(r / 7 + r) % 7];
    OGR_F_SetFieldDateTimeEx(f, F_DATE, y, 1 + r % 12, 1 + (r * 3) % 28, 0, 0, 0, 0);
    OGR_F_SetFieldDateTimeEx(f, F_TIME, 0, 0, 0, r % 24, (r * 7) % 60,
                             (float)((r * 13) % 60) + (r % 4) * 0.25f, 0);
    // TZFlag: unknown, local, UTC, +01:00, -05:00, +05:45, -12:00, +14:00
    static const int tzs[] = {0, 1, 100, 104, 80, 123, 52, 156};
    OGR_F_SetFieldDateTimeEx(f, F_DATETIME, y == 1 ? 1601 : y, 1 + (r * 5) % 12,
                             1 + r % 28, (r * 11) % 24, (r * 17) % 60,
                             (float)(r % 60) + (r % 8) * 0.125f, tzs[(r / 7 + r) % 8]);
  }
  {
    int il[] = {1, -2, 2147483647, 0};
    int n = r % 5;
    OGR_F_SetFieldIntegerList(f, F_INTLIST, n > 4 ? 4 : n, il);
    GIntBig l64[] = {INT64_MIN, 0, INT64_MAX};
    OGR_F_SetFieldInteger64List(f, F_INT64LIST, r % 4, l64);
    double dl[] = {1.5, NAN, -0.0, 1e100};
    OGR_F_SetFieldDoubleList(f, F_REALLIST, (r + 1) % 5, dl);
    char* sl[] = {(char*)"a", (char*)"", (char*)"\xc3\xa9t\xc3\xa9", (char*)"x,y", NULL};
    char* sl_empty[] = {NULL};
    OGR_F_SetFieldStringList(f, F_STRLIST, (r % 3 == 0) ? sl_empty : sl);
    int bl[] = {1, 0, 1};
    OGR_F_SetFieldIntegerList(f, F_BOOLLIST, 1 + r % 3, bl);
    int sl16[] = {-32768, 32767, 7};
    OGR_F_SetFieldIntegerList(f, F_INT16LIST, r % 4, sl16);
    double fl[] = {0.5, 1e-3, -7.25};
    OGR_F_SetFieldDoubleList(f, F_FLOAT32LIST, r % 4, fl);
  }
  OGR_F_SetFieldInteger(f, F_CODED, 1 + r % 3);
  if (mode == 3) {  // some NULL among values
    OGR_F_SetFieldNull(f, F_STR);
    OGR_F_SetFieldNull(f, F_DATE);
    OGR_F_SetFieldNull(f, F_INTLIST);
  }
  if (mode == 4) {  // some unset among values
    OGR_F_UnsetField(f, F_INT64);
    OGR_F_UnsetField(f, F_BIN);
    OGR_F_UnsetField(f, F_STRLIST);
  }
}

static OGRGeometryH geom_from_wkt(const char* wkt) {
  if (!wkt) return NULL;
  OGRGeometryH g = NULL;
  char* p = (char*)wkt;
  if (OGR_G_CreateFromWkt(&p, NULL, &g) != OGRERR_NONE) {
    fprintf(stderr, "bad WKT %s\n", wkt);
    exit(2);
  }
  return g;
}

// The source layers, in a Memory dataset.
static GDALDatasetH make_source(void) {
  GDALDriverH drv = GDALGetDriverByName("Memory");
  GDALDatasetH ds = GDALCreate(drv, "src", 0, 0, 0, GDT_Unknown, NULL);
  OGRSpatialReferenceH srs = OSRNewSpatialReference(NULL);
  OSRImportFromEPSG(srs, 4326);
  OGRFieldDomainH dom = make_domain();
  if (!GDALDatasetAddFieldDomain(ds, dom, NULL)) printf("NOTE Memory: no field domains\n");
  OGR_FldDomain_Destroy(dom);

  // all_types: every field type, every geometry kind (mixed), 3 rows per WKT.
  OGRLayerH lyr = GDALDatasetCreateLayer(ds, "all_types", srs, wkbUnknown, NULL);
  add_all_fields(lyr);
  for (int r = 0; r < N_WKTS * 3; r++) {
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    fill_all_fields(f, r);
    OGRGeometryH g = geom_from_wkt(k_wkts[r % N_WKTS]);
    if (g) OGR_F_SetGeometryDirectly(f, g);
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE) exit(2);
    OGR_F_Destroy(f);
  }

  // empty: the same fields, no features.
  lyr = GDALDatasetCreateLayer(ds, "empty", srs, wkbPoint, NULL);
  add_all_fields(lyr);

  // no_geom: attributes only.
  lyr = GDALDatasetCreateLayer(ds, "no_geom", NULL, wkbNone, NULL);
  add_all_fields(lyr);
  for (int r = 0; r < 50; r++) {
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    fill_all_fields(f, r);
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE) exit(2);
    OGR_F_Destroy(f);
  }

  // One layer per simple geometry type (Shapefile takes only these).
  static const struct {
    const char* name;
    OGRwkbGeometryType type;
    const char* wkt;
  } simple[] = {
      {"points", wkbPoint, "POINT (%d.5 -%d.25)"},
      {"points_z", wkbPoint25D, "POINT Z (%d 1 -%d)"},
      {"lines", wkbLineString, "LINESTRING (0 0,%d 1,2 %d)"},
      {"polygons", wkbPolygon, "POLYGON ((0 0,%d 0,%d 10,0 0))"},
      {"multipoints", wkbMultiPoint, "MULTIPOINT ((%d 0),(1 %d))"},
      {"multilines", wkbMultiLineString, "MULTILINESTRING ((0 0,%d 1),(2 2,3 %d))"},
      {"multipolygons", wkbMultiPolygon,
       "MULTIPOLYGON (((0 0,%d 0,1 1,0 0)),((5 5,6 5,6 %d,5 5)))"},
  };
  for (size_t k = 0; k < sizeof(simple) / sizeof(simple[0]); k++) {
    lyr = GDALDatasetCreateLayer(ds, simple[k].name, srs, simple[k].type, NULL);
    add_field(lyr, "name", OFTString, OFSTNone);
    add_field(lyr, "value", OFTReal, OFSTNone);
    add_field(lyr, "day", OFTDate, OFSTNone);
    for (int r = 0; r < 40; r++) {
      OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
      if (r % 5 != 1) OGR_F_SetFieldString(f, 0, k_strings[r % N_STRINGS]);
      if (r % 6 != 2) OGR_F_SetFieldDouble(f, 1, r * 0.5 - 3);
      if (r % 4 != 3) OGR_F_SetFieldDateTimeEx(f, 2, 1950 + r, 1 + r % 12, 1 + r % 28, 0, 0, 0, 0);
      if (r % 9 != 4) {
        char wkt[256];
        snprintf(wkt, sizeof(wkt), simple[k].wkt, r + 1, r + 2);
        OGR_F_SetGeometryDirectly(f, geom_from_wkt(wkt));
      }
      if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE) exit(2);
      OGR_F_Destroy(f);
    }
  }

  // big: 100,000 features (several default batches of 65,536).
  lyr = GDALDatasetCreateLayer(ds, "big", srs, wkbPoint, NULL);
  add_field(lyr, "i64", OFTInteger64, OFSTNone);
  add_field(lyr, "x", OFTReal, OFSTNone);
  add_field(lyr, "s", OFTString, OFSTNone);
  add_field(lyr, "t", OFTDateTime, OFSTNone);
  for (int r = 0; r < (skip_big ? 0 : 100000); r++) {
    OGRFeatureH f = OGR_F_Create(OGR_L_GetLayerDefn(lyr));
    if (r % 11 != 0) OGR_F_SetFieldInteger64(f, 0, (GIntBig)r * 1000003LL - 50000000000LL);
    if (r % 13 != 0) OGR_F_SetFieldDouble(f, 1, r / 7.0);
    if (r % 17 != 0) {
      char buf[64];
      snprintf(buf, sizeof(buf), "row %d %s", r, (r % 3) ? "\xc3\xa9" : "");
      OGR_F_SetFieldString(f, 2, buf);
    }
    if (r % 19 != 0)
      OGR_F_SetFieldDateTimeEx(f, 3, 2000 + r % 50, 1 + r % 12, 1 + r % 28, r % 24, r % 60,
                               (float)(r % 60), 100);
    if (r % 23 != 0) {
      OGRGeometryH g = OGR_G_CreateGeometry(wkbPoint);
      OGR_G_SetPoint_2D(g, 0, r * 0.001, -r * 0.002);
      OGR_F_SetGeometryDirectly(f, g);
    }
    if (OGR_L_CreateFeature(lyr, f) != OGRERR_NONE) exit(2);
    OGR_F_Destroy(f);
  }
  OSRDestroySpatialReference(srs);
  return ds;
}

// Copies src's layer into ds, feature by feature (a feature the driver refuses is
// skipped and counted).
static int copy_layer(GDALDatasetH ds, OGRLayerH src, char** lco) {
  OGRFeatureDefnH sdefn = OGR_L_GetLayerDefn(src);
  OGRwkbGeometryType gt = OGR_FD_GetGeomType(sdefn);
  OGRSpatialReferenceH srs = OGR_L_GetSpatialRef(src);
  OGRLayerH dst = GDALDatasetCreateLayer(ds, OGR_L_GetName(src), srs, gt, lco);
  if (!dst) return -1;
  for (int i = 0; i < OGR_FD_GetFieldCount(sdefn); i++) {
    OGR_L_CreateField(dst, OGR_FD_GetFieldDefn(sdefn, i), TRUE);
  }
  int refused = 0;
  if (OGR_L_StartTransaction(dst) != OGRERR_NONE) { /* not transactional */ }
  OGR_L_ResetReading(src);
  OGRFeatureH f;
  while ((f = OGR_L_GetNextFeature(src)) != NULL) {
    OGRFeatureH g = OGR_F_Create(OGR_L_GetLayerDefn(dst));
    OGR_F_SetFrom(g, f, TRUE);
    if (OGR_L_CreateFeature(dst, g) != OGRERR_NONE) refused++;
    OGR_F_Destroy(g);
    OGR_F_Destroy(f);
  }
  if (OGR_L_CommitTransaction(dst) != OGRERR_NONE) { /* not transactional */ }
  return refused;
}

static void check_dataset(const char* outdir, const char* tag, GDALDatasetH ds) {
  const char* only = getenv("GAC_ONLY");  // a prefix of the datasets to read (triage)
  if (only && strncmp(tag, only, strlen(only)) != 0) return;
  n_datasets++;
  current_ds = ds;
  static const struct {
    const char* label;
    const char* opts[3];
    int include_fid, max_batch;
  } option_sets[] = {
      {"default", {NULL}, 1, 0},
      {"nofid", {"INCLUDE_FID=NO", NULL}, 0, 0},
      {"batch7", {"MAX_FEATURES_IN_BATCH=7", NULL}, 1, 7},
      {"batch1", {"MAX_FEATURES_IN_BATCH=1", "INCLUDE_FID=NO", NULL}, 0, 1},
  };
  for (int l = 0; l < GDALDatasetGetLayerCount(ds); l++) {
    OGRLayerH lyr = GDALDatasetGetLayer(ds, l);
    // By name (OGR_L_GetFeatureCount on a layer of GDAL 3.6's XML drivers leaks the
    // expat parser of the iterator it uses).
    int big = strstr(OGR_L_GetName(lyr), "big") != NULL;
    if (big && skip_big) continue;
    n_layers++;
    for (size_t o = 0; o < sizeof(option_sets) / sizeof(option_sets[0]); o++) {
      // Big layers: the default batches everywhere, batches of 7 (14,286 of them)
      // from Memory and GPKG only, never batches of 1 (time and disk).
      if (big && (option_sets[o].max_batch == 1 ||
                  (option_sets[o].max_batch == 7 && strcmp(tag, "Memory") != 0 &&
                   strcmp(tag, "GPKG") != 0)))
        continue;
      char label[512];
      snprintf(label, sizeof(label), "%s.%s.%s", tag, OGR_L_GetName(lyr),
               option_sets[o].label);
      for (char* p = label; *p; p++)
        if (*p == '/' || *p == ' ') *p = '_';
      check_stream(outdir, label, lyr, (char**)option_sets[o].opts,
                   option_sets[o].include_fid, option_sets[o].max_batch);
    }
    // Once more with the second attribute field ignored and a spatial filter (other
    // columns, other rows; GDAL's GeoPackage reader has its own code for filters).
    OGRFeatureDefnH defn = OGR_L_GetLayerDefn(lyr);
    if (!big && OGR_FD_GetFieldCount(defn) >= 2) {
      const char* ignored[] = {OGR_Fld_GetNameRef(OGR_FD_GetFieldDefn(defn, 1)), NULL};
      char label[512];
      snprintf(label, sizeof(label), "%s.%s.filtered", tag, OGR_L_GetName(lyr));
      for (char* p = label; *p; p++)
        if (*p == '/' || *p == ' ') *p = '_';
      // GAC_FILTERED=ignore or =spatial: only one of the two (for triage).
      const char* which = getenv("GAC_FILTERED");
      if (which && strcmp(which, "spatial") == 0) ignored[0] = NULL;
      if (OGR_L_SetIgnoredFields(lyr, ignored) == OGRERR_NONE) {
        // GDAL 3.6's MapInfo layers with a spatial filter hang in the stream's first
        // get_next (inside GDAL; GetNextFeature with the same filter returns): left out.
        int mapinfo_hang = strncmp(tag, "MapInfo", 7) == 0 && gdal_version < 3070000;
        // Before GDAL 3.8 the GeoPackage and FlatGeobuf streams select the features
        // whose bounding box meets the filter, not those whose geometry does, as
        // GetNextFeature does (OSGeo/gdal#8347): left out as well.
        int bbox_only = (strncmp(tag, "GPKG", 4) == 0 || strncmp(tag, "FlatGeobuf", 10) == 0) &&
                        gdal_version < 3080000;
        if (OGR_FD_GetGeomFieldCount(defn) > 0 && !mapinfo_hang && !bbox_only &&
            !(which && strcmp(which, "ignore") == 0))
          OGR_L_SetSpatialFilterRect(lyr, 0, -5, 5, 5);
        const char* none[] = {NULL};
        check_stream(outdir, label, lyr, (char**)none, 1, 0);
        OGR_L_SetSpatialFilter(lyr, NULL);
        if (OGR_L_SetIgnoredFields(lyr, NULL) != OGRERR_NONE) exit(2);
      }
    }
  }
}

int main(int argc, char** argv) {
  if (argc == 3 && strcmp(argv[2], "--small") == 0) {
    skip_big = 1;
  } else if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR [--small]\n", argv[0]);
    return 2;
  }
  const char* outdir = argv[1];
  char path[4096];
  mkdir(outdir, 0777);
  snprintf(path, sizeof(path), "%s/data", outdir);
  mkdir(path, 0777);
  snprintf(path, sizeof(path), "%s/ipc", outdir);
  mkdir(path, 0777);

  setvbuf(stdout, NULL, _IOLBF, 0);
  snprintf(path, sizeof(path), "%s/known.tsv", outdir);
  known_fp = open_or_die(path, "w");
  GDALAllRegister();
  CPLPushErrorHandler(CPLQuietErrorHandler);
  printf("GDAL %s\n", GDALVersionInfo("RELEASE_NAME"));
  gdal_version = atol(GDALVersionInfo("VERSION_NUM"));

  GDALDatasetH src = make_source();
  check_dataset(outdir, "Memory", src);

  static const struct {
    const char* driver;
    const char* ext;  // "" for a directory dataset
    int one_layer;    // one dataset per layer
    int simple_geoms_only;
    int no_big;  // slow writers: not the 100,000-feature layer
    const char* lco[3];
  } targets[] = {
      {"GPKG", ".gpkg", 0, 0, 0, {NULL}},
      {"SQLite", ".sqlite", 0, 0, 0, {NULL}},
      {"FlatGeobuf", ".fgb", 1, 0, 0, {NULL}},
      {"GeoJSON", ".geojson", 1, 0, 0, {NULL}},
      {"CSV", ".csv", 1, 0, 0, {"GEOMETRY=AS_WKT", NULL}},
      {"ESRI Shapefile", ".shp", 1, 1, 0, {NULL}},
      {"MapInfo File", ".tab", 1, 0, 1, {NULL}},
      {"GeoJSONSeq", ".geojsonl", 1, 0, 1, {NULL}},
      {"GML", ".gml", 0, 0, 1, {NULL}},
      {"ODS", ".ods", 0, 0, 1, {NULL}},
      {"XLSX", ".xlsx", 0, 0, 1, {NULL}},
      {"JML", ".jml", 1, 0, 1, {NULL}},
  };
  for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
    GDALDriverH drv = GDALGetDriverByName(targets[t].driver);
    if (!drv) {
      printf("SKIP driver %s: not in this GDAL\n", targets[t].driver);
      continue;
    }
    char tag[64];
    snprintf(tag, sizeof(tag), "%s", targets[t].driver);
    for (char* p = tag; *p; p++)
      if (*p == ' ') *p = '_';
    int n_src = GDALDatasetGetLayerCount(src);
    for (int l = 0; l < n_src; l++) {
      OGRLayerH sl = GDALDatasetGetLayer(src, l);
      const char* name = OGR_L_GetName(sl);
      if (targets[t].simple_geoms_only && strcmp(name, "all_types") == 0) continue;
      if (targets[t].one_layer && targets[t].no_big && OGR_L_GetFeatureCount(sl, TRUE) > 1000)
        continue;
      if (!targets[t].one_layer && l > 0) break;
      // One dataset per layer, or one dataset holding every layer.
      if (targets[t].one_layer)
        snprintf(path, sizeof(path), "%s/data/%s_%s%s", outdir, tag, name, targets[t].ext);
      else
        snprintf(path, sizeof(path), "%s/data/%s%s", outdir, tag, targets[t].ext);
      VSIUnlink(path);
      GDALDatasetH ds = GDALCreate(drv, path, 0, 0, 0, GDT_Unknown, NULL);
      if (!ds) {
        printf("SKIP %s: cannot create (%s)\n", path, CPLGetLastErrorMsg());
        continue;
      }
      {
        OGRFieldDomainH dom = make_domain();
        if (!GDALDatasetAddFieldDomain(ds, dom, NULL))
          printf("NOTE %s: no field domains\n", targets[t].driver);
        OGR_FldDomain_Destroy(dom);
      }
      if (targets[t].one_layer) {
        int refused = copy_layer(ds, sl, (char**)targets[t].lco);
        if (refused) printf("NOTE %s: %s refused %d features\n", path, targets[t].driver, refused);
      } else {
        for (int k = 0; k < n_src; k++) {
          if (targets[t].no_big && OGR_L_GetFeatureCount(GDALDatasetGetLayer(src, k), TRUE) > 1000)
            continue;
          int refused = copy_layer(ds, GDALDatasetGetLayer(src, k), (char**)targets[t].lco);
          if (refused)
            printf("NOTE %s/%s: refused %d features\n", path,
                   OGR_L_GetName(GDALDatasetGetLayer(src, k)), refused);
        }
      }
      GDALClose(ds);
      GDALDatasetH rds = GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL, NULL, NULL);
      size_t len = strlen(path);
      if (!rds && len > 4 && strcmp(path + len - 4, ".shp") == 0) {
        // A layer without geometry is a lone .dbf.
        memcpy(path + len - 4, ".dbf", 4);
        rds = GDALOpenEx(path, GDAL_OF_VECTOR | GDAL_OF_READONLY, NULL, NULL, NULL);
      }
      if (!rds) {
        printf("SKIP %s: cannot reopen (%s)\n", path, CPLGetLastErrorMsg());
        continue;
      }
      char dtag[128];
      if (targets[t].one_layer)
        snprintf(dtag, sizeof(dtag), "%s_%s", tag, name);
      else
        snprintf(dtag, sizeof(dtag), "%s", tag);
      check_dataset(outdir, dtag, rds);
      GDALClose(rds);
    }
  }
  GDALClose(src);
  fclose(known_fp);
  CPLPopErrorHandler();
  GDALDestroyDriverManager();

  int64_t mismatches = n_mismatch_value + n_mismatch_schema + n_mismatch_valid +
                       n_mismatch_ipc + n_mismatch_rows + n_gdal_fail + n_readback_mismatch;
  printf("\nSUMMARY datasets=%" PRId64 " layers=%" PRId64 " streams=%" PRId64
         " batches=%" PRId64 " columns=%" PRId64 " values=%" PRId64
         " readback_values=%" PRId64 " dictionary_values=%" PRId64 " ipc_files=%" PRId64
         " whole_streams=%" PRId64 "\n",
         n_datasets, n_layers, n_streams, n_batches, n_columns, n_values, n_readback_values,
         n_dictionary_values, n_ipc_files, n_whole_streams);
  printf("KNOWN-GDAL %" PRId64 " (GDAL's own bugs, listed below with the word known)\n",
         n_known_gdal);
  printf("MISMATCHES value=%" PRId64 " schema=%" PRId64 " validation=%" PRId64
         " ipc_write=%" PRId64 " rows=%" PRId64 " gdal_fail=%" PRId64 " readback=%" PRId64
         " total=%" PRId64 "\n",
         n_mismatch_value, n_mismatch_schema, n_mismatch_valid, n_mismatch_ipc,
         n_mismatch_rows, n_gdal_fail, n_readback_mismatch, mismatches);
  for (int i = 0; i < n_tallies; i++)
    printf("  %6" PRId64 "  %s\n", tallies[i].n, tallies[i].key);
  return mismatches == 0 ? 0 : 1;
}
