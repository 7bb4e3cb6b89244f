public import Reporting

/// Something worth telling the user about a type declaration that was read: a declaration that
/// was not applied, or one that was applied but breaks Apple's rules. The one
/// ``Reporting/Diagnostic`` type every module reports findings with, without a code; its
/// ``Reporting/Diagnostic/file`` is the `Info.plist` the declaration came from and its
/// ``Reporting/Diagnostic/subject`` the identifier it is about.
///
/// Reading declarations never prints; callers decide where diagnostics go (the CLI prints them
/// to standard error).
public typealias TypeDiagnostic = Diagnostic

extension Diagnostic {
    /// A finding about a type declaration read from `sourcePath`, about `identifier` if given.
    static func typeDeclaration(
        _ severity: Severity, _ message: String, sourcePath: String, identifier: UniformTypeIdentifier? = nil
    ) -> Diagnostic {
        Diagnostic(severity, nil, message, file: sourcePath, subject: identifier?.rawValue)
    }

    /// The type identifier the diagnostic is about, if there is one.
    public var identifier: UniformTypeIdentifier? { subject.map { UniformTypeIdentifier($0) } }
}
