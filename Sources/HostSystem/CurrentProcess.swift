/// The running process itself: its C standard streams and its exit, for the programs and runtimes
/// that end or hand over their output outside Swift's own I/O.
public enum CurrentProcess {
    /// Writes out everything buffered in the C library's output streams (`stdout`, `stderr`,
    /// every open `FILE`), so a parent reading the process's output sees it before what follows.
    ///
    /// The corresponding C function is `fflush` with a null stream.
    public static func flushStandardStreams() {
        _ = system_fflush_all()
    }

    /// Ends the process with `status`: the `atexit` handlers run and the C streams are flushed.
    ///
    /// The corresponding C function is `exit`.
    public static func exit(_ status: Int32) -> Never {
        system_exit(status)
    }
}
