/* nanoarrow in C: forwarding header for Exception and NANOARROW_THROW_NOT_OK.
 *
 * All C++ helpers are defined in nanoarrow/nanoarrow.hpp. This header exists
 * only so that code written against the split-header layout of upstream
 * nanoarrow (nanoarrow/hpp/exception.hpp) compiles unchanged; it gives the whole
 * of nanoarrow.hpp. */

#ifndef NANOARROW_HPP_EXCEPTION_HPP_INCLUDED
#define NANOARROW_HPP_EXCEPTION_HPP_INCLUDED

#include "nanoarrow/nanoarrow.hpp"

#endif /* NANOARROW_HPP_EXCEPTION_HPP_INCLUDED */
