import HeadlessScreens

/// What UIKit noticed going wrong on the main thread (a refused presentation, a constraint without
/// a common ancestor), with the object it concerns so a screen reports only its own.
@MainActor
enum UIKitDiagnostics {
    struct Record {
        var diagnostic: UIDiagnostic
        weak var object: AnyObject?
        var sequence: UInt64
    }

    private(set) static var records: [Record] = []

    /// Records a diagnostic about `object`.
    static func record(_ kind: UIDiagnostic.Kind, _ message: String, object: AnyObject?) {
        records.append(
            Record(
                diagnostic: UIDiagnostic(kind: kind, message: message), object: object, sequence: LifeCycleClock.tick())
        )
    }

    /// Forgets the records a finished screen reported (and any whose object is gone).
    static func forget(where shouldForget: (Record) -> Bool) {
        records.removeAll(where: shouldForget)
    }
}
