/* A library that uses nanoarrow privately: its own header exposes only the
 * Arrow C Data Interface structs (through nanoarrow's header here, but callers
 * need nothing but the ABI). */
#ifndef EXAMPLE_LIBRARY_H_INCLUDED
#define EXAMPLE_LIBRARY_H_INCLUDED

#include <stdint.h>

/* Parses each string as an integer into an int32 array; 0 on success. */
int example_parse_int32(int n, char** values, int64_t* length_out, int64_t* sum_out);
/* The last error of this library, or "". */
const char* example_last_error(void);
/* The nanoarrow version the library was built with, as its runtime reports it. */
const char* example_nanoarrow_version(void);

#endif
