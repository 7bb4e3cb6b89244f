import ExtensionIPC

/// The mistakes real extensions make that only a device punishes, named from what the share shows:
/// what the runtime noticed inside the extension (loads abandoned by an early `completeRequest`, a
/// second completion, an `open(_:)`, an in-memory image handed to code that may expect a file URL),
/// and what the host saw (a request never ended).
enum MistakeExplainer {
    /// The lines the runtime logs about misuse start with one of these.
    static let runtimeMarkers = [
        "completeRequest was called while", "cancelRequest was called while",
        "completeRequest(returningItems:) called after", "cancelRequest(withError:) called after",
        "open(", "loadItem(forTypeIdentifier:",
    ]

    static func mistakes(in run: ExtensionReport, attachments context: ContextDescription) -> [String] {
        var found: [String] = []
        for message in run.messages where message.level == .error {
            guard runtimeMarkers.contains(where: message.text.hasPrefix) else { continue }
            found.append(explained(message.text))
        }
        if run.outcome == .killedTimeout {
            var text =
                "the request never ended: neither completeRequest nor cancelRequest was called before the time limit "
                + "(iOS ends a share extension that never completes)"
            if let activity = run.activity { text += "; the last thing it did: \(activity)" }
            text += "; \(run.completion == nil ? "no" : "a") completion reached the host"
            found.append(text)
        }
        return found
    }

    private static func explained(_ text: String) -> String {
        if text.hasPrefix("completeRequest(returningItems:) called after")
            || text.hasPrefix("cancelRequest(withError:) called after")
        {
            return text + " (the first call ended the request; on a device the process may already be gone)"
        }
        return text
    }
}
