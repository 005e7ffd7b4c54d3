/* A library that writes and reads the Arrow IPC stream format with nanoarrow_ipc,
 * keeping nanoarrow out of its own header. */
#ifndef EXAMPLE_IPC_LIBRARY_H_INCLUDED
#define EXAMPLE_IPC_LIBRARY_H_INCLUDED

#include <stdint.h>
#include <stdio.h>

/* Writes a stream of one int32 column "x" holding 0, 1, ..., n - 1 (in batches of
 * at most 3 rows) to out; 0 on success. */
int example_write_stream(FILE* out, int32_t n);
/* Reads an IPC stream from in, checking every batch; counts batches and rows and
 * sums the first column when it is int32. 0 on success. */
int example_read_stream(FILE* in, int64_t* batches_out, int64_t* rows_out,
                        int64_t* sum_out);
/* The last error of this library, or "". */
const char* example_last_error(void);

#endif
