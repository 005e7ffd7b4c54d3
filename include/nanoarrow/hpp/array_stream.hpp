/* nanoarrow in C: forwarding header for the array stream helpers.
 *
 * All C++ helpers are defined in nanoarrow/nanoarrow.hpp. This header exists
 * only so that code written against the split-header layout of upstream
 * nanoarrow (nanoarrow/hpp/array_stream.hpp) compiles unchanged; it gives the whole
 * of nanoarrow.hpp. */

#ifndef NANOARROW_HPP_ARRAY_STREAM_HPP_INCLUDED
#define NANOARROW_HPP_ARRAY_STREAM_HPP_INCLUDED

#include "nanoarrow/nanoarrow.hpp"

#endif /* NANOARROW_HPP_ARRAY_STREAM_HPP_INCLUDED */
