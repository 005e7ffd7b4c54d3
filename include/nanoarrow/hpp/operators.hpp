/* nanoarrow in C: forwarding header for the _asv literal and string view ==.
 *
 * All C++ helpers are defined in nanoarrow/nanoarrow.hpp. This header exists
 * only so that code written against the split-header layout of upstream
 * nanoarrow (nanoarrow/hpp/operators.hpp) compiles unchanged; it gives the whole
 * of nanoarrow.hpp. */

#ifndef NANOARROW_HPP_OPERATORS_HPP_INCLUDED
#define NANOARROW_HPP_OPERATORS_HPP_INCLUDED

#include "nanoarrow/nanoarrow.hpp"

#endif /* NANOARROW_HPP_OPERATORS_HPP_INCLUDED */
