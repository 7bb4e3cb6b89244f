import Foundation

/// The notes both the app and its share extension see, in the App Group's defaults.
final class NoteStore {
    static let groupID = "group.com.example.notes"

    private var defaults: UserDefaults? { UserDefaults(suiteName: NoteStore.groupID) }

    func titles() -> [String] { defaults?.stringArray(forKey: "titles") ?? [] }

    func add(_ titles: [String]) {
        defaults?.set(self.titles() + titles, forKey: "titles")
    }
}
