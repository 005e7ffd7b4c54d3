#ifndef EXAMPLE_VENDORED_IPC_LIBRARY_H_INCLUDED
#define EXAMPLE_VENDORED_IPC_LIBRARY_H_INCLUDED

#include <stdio.h>

/* Writes a stream of two batches of one string column to out; 0 on success. */
int example_write_names(FILE* out);
/* Reads an IPC stream from in and prints its schema and each batch's length;
 * 0 on success, otherwise example_last_error() says what was wrong. */
int example_describe_stream(FILE* in);
const char* example_last_error(void);

#endif
