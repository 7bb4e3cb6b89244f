import ExtensionIPC

/// The mistakes real extensions make that only a device punishes, named from what the share shows:
/// what the runtime noticed inside the extension (loads abandoned by an early `completeRequest`, a
/// second completion, an `open(_:)`, an in-memory image handed to code that may expect a file URL),
/// and what the host saw (a request never ended).
enum MistakeExplainer {
    static func mistakes(in run: ExtensionReport, attachments context: ContextDescription) -> [String] {
        var found: [String] = []
        // The runtime types the lines that report a misuse (``LogLine/Mistake``); other lines,
        // whatever they say, are not mistakes.
        for message in run.messages where message.level == .error {
            guard let mistake = message.mistake else { continue }
            found.append(explained(message.text, mistake))
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

    private static func explained(_ text: String, _ mistake: LogLine.Mistake) -> String {
        switch mistake {
        case .requestEndedTwice:
            text + " (the first call ended the request; on a device the process may already be gone)"
        case .requestEndedWithLoadsInFlight, .openRefused, .inMemoryImage: text
        }
    }
}
