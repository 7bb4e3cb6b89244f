/// A UTF-8 `LC_CTYPE` locale, or nil when the C library has none. Immutable once created, and a
/// `locale_t` may be installed on any number of threads at once, hence `nonisolated(unsafe)`.
nonisolated(unsafe) private let utf8CharacterLocale = system_newlocale_utf8_ctype()

/// Runs `body` with the calling thread's `LC_CTYPE` set to UTF-8, then restores the previous one.
///
/// libarchive converts entry names between the archive's charset and the "current locale". A
/// Swift process runs in the C locale (ASCII), where every non-ASCII name fails to convert and
/// the pax writer even crashes on the missing name, so every libarchive call that touches names
/// runs inside this. The thread locale affects only the calling thread, unlike `setlocale`.
///
/// The corresponding C functions are `newlocale` (once) and `uselocale`.
package func withUTF8CharacterLocale<T>(_ body: () throws -> T) rethrows -> T {
    guard let locale = utf8CharacterLocale else { return try body() }
    let previous = system_uselocale(locale)
    defer {
        if let previous { _ = system_uselocale(previous) }
    }
    return try body()
}
