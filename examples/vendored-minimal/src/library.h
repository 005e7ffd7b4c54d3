#ifndef EXAMPLE_VENDORED_LIBRARY_H_INCLUDED
#define EXAMPLE_VENDORED_LIBRARY_H_INCLUDED

/* Builds a string array of the arguments and prints "i: value" for each element
 * through an array view, then the array's schema; 0 on success. */
int example_print_strings(int n, char** values);
const char* example_last_error(void);

#endif
