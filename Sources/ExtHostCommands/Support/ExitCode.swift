import ExtensionHost

/// The exit codes of every `exthost` command (documented in `exthost --help` and README).
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// 0: the operation succeeded, or the answer is "yes".
    case success = 0
    /// 1: the operation failed (I/O, a crashed or killed extension, a verification problem).
    case failure = 1
    /// 2: bad usage or bad input (an unknown option, a broken plist, a predicate that does not parse).
    case usage = 2
    /// 3: the answer is "no" (a rule did not activate, a type does not conform).
    case no = 3

    /// One line per code, for help texts.
    static let documentation = """
        Exit codes:
          0  success, or the answer is "yes"
          1  the operation failed
          2  bad usage or bad input (the message names the file, line and column where one applies)
          3  the answer is "no" (a rule did not activate, a type does not conform)
        """
}

/// An error the command line reports with a given exit code and a one-line message.
///
/// Throw ``usage(_:)`` for wrong arguments (usage is printed too), ``input(_:)`` for broken
/// input files, ``failed(_:)`` for an operation that could not be done.
public struct CommandError: Error, Sendable, CustomStringConvertible {
    /// The exit code the process ends with.
    public var exitCode: ExitCode
    /// The message, printed after `error: `.
    public var message: String
    /// Whether the command's usage line follows the message.
    public var showsUsage: Bool

    /// Bad usage: exit 2, with the usage line.
    public static func usage(_ message: String) -> CommandError {
        CommandError(exitCode: .usage, message: message, showsUsage: true)
    }

    /// Bad input: exit 2, no usage line.
    public static func input(_ message: String) -> CommandError {
        CommandError(exitCode: .usage, message: message, showsUsage: false)
    }

    /// A failed operation: exit 1.
    public static func failed(_ message: String) -> CommandError {
        CommandError(exitCode: .failure, message: message, showsUsage: false)
    }

    public var description: String { message }
}

extension CommandError {
    /// The command-line error for a share or app launch that could not run: by its kind, bad
    /// input (an unreadable file, a rule with errors) exits 2, a failure to run exits 1.
    init(_ error: ShareError) {
        switch error.kind {
        case .badInput, .invalidRule: self = .input(error.message)
        case .failed: self = .failed(error.message)
        }
    }
}
