/// A random 64-bit value in hex, for temporary names (`.name.tmp-<hex>`, `.name.extract-<hex>`).
func randomSuffix() -> String {
    String(UInt64.random(in: UInt64.min...UInt64.max), radix: 16)
}
