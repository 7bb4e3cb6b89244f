// libarchive, imported into Swift as the CArchive module. Only Sources/Archives imports it.
// `struct archive *` and `struct archive_entry *` arrive as OpaquePointer; the AE_IF* cast
// macros are not imported (use the S_IF* values from Archives/Internal/SystemFile.swift).
#ifndef EXTHOST_CARCHIVE_SHIM_H
#define EXTHOST_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#endif
