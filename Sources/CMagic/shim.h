// libmagic (file(1)'s content sniffing), imported into Swift as the CMagic module. Only
// Sources/Payloads/ContentSniffer.swift imports it. `magic_t` arrives as OpaquePointer.
#ifndef EXTHOST_CMAGIC_SHIM_H
#define EXTHOST_CMAGIC_SHIM_H
#include <magic.h>
#endif
