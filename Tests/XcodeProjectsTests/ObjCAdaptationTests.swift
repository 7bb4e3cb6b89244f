import Foundation
import Testing
import XcodeProjects

@Suite struct ObjCAdaptationTests {
    @Test func theXcode15ExtensionLosesItsAttributesAndGainsItsSelectors() throws {
        let file = Fixtures.xcode15.appendingPathComponent("NotesShare/ShareViewController.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let adaptation = try ObjCAdaptation.adapt(text, file: file.path)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ needle: String) -> Int { (lines.firstIndex { $0.contains(needle) } ?? -2) + 1 }
        #expect(
            adaptation.changes == [
                AdaptedLine(
                    file: file.path, line: line("@IBOutlet"), before: "    @IBOutlet weak var titleLabel: UILabel?",
                    after: "    weak var titleLabel: UILabel?"),
                AdaptedLine(
                    file: file.path, line: line("if responds(to: #selector"),
                    before: "        if responds(to: #selector(save(_:))) {",
                    after: "        if responds(to: Selector(\"save:\")) {"),
                AdaptedLine(
                    file: file.path, line: line("perform(#selector"),
                    before: "            perform(#selector(save(_:)), with: self)",
                    after: "            perform(Selector(\"save:\"), with: self)"),
                AdaptedLine(
                    file: file.path, line: line("@IBAction"), before: "    @IBAction func save(_ sender: Any) {",
                    after: "    func save(_ sender: Any) {"),
                AdaptedLine(
                    file: file.path, line: line("@objc private"), before: "    @objc private func finish() {",
                    after: "    private func finish() {"),
            ])
        let members = try #require(adaptation.dispatchMembers["ShareViewController"])
        #expect(members.contains("        case \"save:\", \"finish\": return true"))
        #expect(
            members.contains(
                "            MainActor.assumeIsolated { save((arguments.count > 0 ? arguments[0] : nil) as Any) }"))
        let copy = try #require(adaptation.adaptedText)
        #expect(copy.hasPrefix("#sourceLocation(file: \"\(file.path)\", line: 1)\n"))
        // The members go before the class's closing brace, and the lines after keep their numbers.
        #expect(copy.contains("#sourceLocation(file: \"\(file.path)\", line: \(lines.count - 1))\n}"))
    }

    @Test func selectorsAreNamedAsObjectiveCNamesThem() throws {
        let text = """
            class Opener: UIResponder {
                @objc(openLink:) func open(_ url: URL) {}
                func wire() {
                    _ = #selector(open(_:))
                    _ = #selector(Opener.close)
                    _ = #selector(share(with:options:))
                    _ = #selector(UIApplication.open(_:options:completionHandler:))
                    _ = #selector(openURL(_:))
                    _ = #selector(getter: title)
                    _ = #selector(setter: title)
                    _ = #selector(self.move(_:_:))
                    // #selector(comment(_:)) stays
                    _ = "#selector(string(_:))"
                }
            }
            """
        let adaptation = try ObjCAdaptation.adapt(text, file: "O.swift")
        #expect(
            adaptation.changes.map { $0.after.trimmingCharacters(in: .whitespaces) } == [
                "func open(_ url: URL) {}",
                "_ = Selector(\"openLink:\")", "_ = Selector(\"close\")", "_ = Selector(\"shareWith:options:\")",
                "_ = Selector(\"openURL:options:completionHandler:\")", "_ = Selector(\"openURL:\")",
                "_ = Selector(\"title\")", "_ = Selector(\"setTitle:\")", "_ = Selector(\"move::\")",
            ])
        let members = try #require(adaptation.dispatchMembers["Opener"])
        #expect(members.contains("        case \"openLink:\": return true"))
        #expect(
            members.contains(
                "            guard let a0 = (arguments.count > 0 ? arguments[0] : nil) as? URL else { return .returned(nil) }"
            ))
    }

    @Test func aClassThatIsNotAUIKitSubclassGainsAConformance() throws {
        let text = """
            final class Poster: NSObject {
                @objc func post(_ text: String?) -> Bool { true }
            }
            """
        let adaptation = try ObjCAdaptation.adapt(text, file: "P.swift")
        let copy = try #require(adaptation.adaptedText)
        #expect(copy.contains("extension Poster: SelectorDispatching {"))
        #expect(copy.contains("func canDispatch(_ selector: Selector) -> Bool { [\"post:\"].contains(selector) }"))
        #expect(copy.contains("return .returned(post((arguments.count > 0 ? arguments[0] : nil) as? String))"))
    }

    @Test func aMethodInAnExtensionIsListedByItsClassInTheSameFile() throws {
        let text = """
            class Editor: UIViewController {
                override func viewDidLoad() {}
            }

            extension Editor {
                @objc func keyboardWillShow(_ note: Notification) {}
            }
            """
        let adaptation = try ObjCAdaptation.adapt(text, file: "E.swift")
        #expect(
            adaptation.dispatchMembers["Editor"]?.contains("        case \"keyboardWillShow:\": return true") == true)
        #expect(adaptation.adaptedText?.contains("#sourceLocation()\n    // Added by exthost import") == true)
        do {
            _ = try ObjCAdaptation.adapt("extension Elsewhere {\n    @objc func go() {}\n}\n", file: "X.swift")
            Issue.record("adapted")
        } catch {
            #expect(error.location == SourceLocation(file: "X.swift", line: 2, column: 1), "\(error)")
            #expect(error.message.contains("extension of 'Elsewhere', which is not declared in this file"))
        }
    }

    @Test func theSelectorPathOfTheTemplatesCompilesAsItIs() throws {
        let text = """
            let selector = sel_registerName("openURL:")
            var responder: UIResponder? = self
            while let current = responder {
                if current.responds(to: selector) { current.perform(selector, with: url); break }
                responder = current.next
            }
            let other = NSSelectorFromString("close")
            """
        let adaptation = try ObjCAdaptation.adapt(text, file: "T.swift")
        #expect(adaptation.adaptedText == nil && adaptation.changes.isEmpty)
    }

    @Test func uiApplicationMainBecomesMain() throws {
        let adaptation = try ObjCAdaptation.adapt(
            "@UIApplicationMain\nclass AppDelegate: UIResponder {}", file: "A.swift")
        #expect(adaptation.changes.map(\.after) == ["@main"])
    }

    @Test(arguments: [
        ("objc_setAssociatedObject(self, &key, value, .OBJC_ASSOCIATION_RETAIN)", "associated objects", 5),
        ("let invocation = NSInvocation()", "NSInvocation", 22),
        ("defaults.addObserver(self, forKeyPath: \"x\", options: [], context: nil)", "key-value observing", 32),
        ("method_exchangeImplementations(a, b)", "swizzling", 5),
    ])
    func whatCannotComeAlongIsRefusedWithItsLine(_ statement: String, _ why: String, _ column: Int) {
        let text = "import UIKit\n\nfunc f() {\n    \(statement)\n}\n"
        do {
            _ = try ObjCAdaptation.adapt(text, file: "R.swift")
            Issue.record("adapted \(statement)")
        } catch {
            #expect(error.location == SourceLocation(file: "R.swift", line: 4, column: column), "\(error)")
            #expect(error.message.contains(why), "\(error)")
        }
    }
}
