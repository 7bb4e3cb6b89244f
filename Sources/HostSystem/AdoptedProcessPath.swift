import CSystemShims

/// The executable path this process took from its `CFProcessPath` environment variable, which is
/// what `Bundle.main` is made from.
///
/// swift-corelibs-foundation reads the executable path from `/proc/self/exe` only, so a process
/// exthost starts from a program outside its bundle would otherwise see the program's folder as
/// `Bundle.main`. The host sets `CFProcessPath` to `<bundle>/<CFBundleExecutable>`
/// (`ProcessEnvironment.processPathVariable`); a constructor in `CSystemShims`, linked into every
/// program built on these modules, stores it where CoreFoundation keeps the process path before any
/// Swift code runs.
public enum AdoptedProcessPath {
    /// The adopted path, or nil when the process adopted none (no `CFProcessPath`, or not absolute).
    public static var path: String? {
        guard let pointer = eh_adopted_process_path() else { return nil }
        return String(cString: pointer)
    }
}
