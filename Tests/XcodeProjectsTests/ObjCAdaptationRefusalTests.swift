import Foundation
import Testing
import XcodeProjects

/// Objective-C dispatch the import cannot carry to Linux is refused with the line (and column where
/// there is one) of the code that needs it, and nothing is adapted.
@Suite struct ObjCAdaptationRefusalTests {
    @Test(arguments: [
        ("@objc protocol Picker {\n    @objc optional func pick()\n}", 2, "an optional protocol requirement"),
        ("@objc func loose() {}", 1, "the @objc method 'loose' is not in a class"),
        (
            "class V: UIViewController {\n    @objc func tap() {}\n    func f() { _ = 1 } }", 3,
            "the class 'V' must end with '}' on a line of its own"
        ),
        (
            "class V: UIViewController {\n    func f() {\n        _ = #selector(tap(_:)\n    }\n}", 3,
            "#selector( is not closed on its line"
        ),
        ("class V: UIViewController {\n    @objc func pick<T>(_ value: T) {}\n}", 2, "the generic method 'pick'"),
        (
            "class V: UIViewController {\n    @objc func bump(_ value: inout Int) {}\n}", 2,
            "the inout parameter of 'bump'"
        ),
        (
            "class V: UIViewController {\n    @objc func odd(value) {}\n}", 2,
            "cannot read the parameter 'value' of 'odd'"
        ),
        (
            "class V: UIViewController {\n    func f() {\n        _ = #selector((tap) as () -> Void)\n    }\n}", 3,
            "name the method without a cast"
        ),
        (
            "class V: UIViewController {\n    func f() {\n        _ = #selector(1 + 2)\n    }\n}", 3,
            "cannot be adapted: not a method name"
        ),
    ])
    func refusedAtItsLine(_ text: String, _ line: Int, _ message: String) {
        do {
            let adaptation = try ObjCAdaptation.adapt(text, file: "R.swift")
            Issue.record("adapted: \(adaptation.changes)")
        } catch {
            #expect(error.location?.file == "R.swift")
            #expect(error.location?.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    /// An initializer's selector is named as Objective-C names it (`init`, `initWithName:`).
    @Test func initializerSelectorsAreNamedAsObjectiveCNamesThem() throws {
        let text = """
            class Maker: NSObject {
                func wire() {
                    _ = #selector(Maker.init)
                    _ = #selector(Maker.init(name:))
                }
            }
            """
        let adaptation = try ObjCAdaptation.adapt(text, file: "M.swift")
        #expect(
            adaptation.changes.map(\.after) == [
                "        _ = Selector(\"init\")", "        _ = Selector(\"initWithName:\")",
            ])
    }
}
