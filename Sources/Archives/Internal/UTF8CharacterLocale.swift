// The only file of the Archives module that imports Glibc: the thread's character locale for
// libarchive. Every other system call goes through HostSystem.
#if canImport(Glibc)
import Glibc
#endif

/// A UTF-8 `LC_CTYPE` locale, or nil when the C library has none. Immutable once created, and a
/// `locale_t` may be installed on any number of threads at once, hence `nonisolated(unsafe)`.
nonisolated(unsafe) private let utf8CharacterLocale: locale_t? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// Runs `body` with the calling thread's `LC_CTYPE` set to UTF-8 (`uselocale`), then restores it.
///
/// libarchive converts entry names between the archive's charset and the "current locale". A
/// Swift process runs in the C locale (ASCII), where every non-ASCII name fails to convert and
/// the pax writer even crashes on the missing name, so every libarchive call that touches names
/// runs inside this. The thread locale affects only the calling thread, unlike `setlocale`.
func withUTF8CharacterLocale<T>(_ body: () throws -> T) rethrows -> T {
    guard let locale = utf8CharacterLocale else { return try body() }
    let previous = uselocale(locale)
    defer {
        if let previous { uselocale(previous) }
    }
    return try body()
}
