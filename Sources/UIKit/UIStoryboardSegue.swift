import ExtensionFoundation
public import Foundation
import HeadlessScreens

/// `UIStoryboardSegue`: a transition between two view controllers of a storyboard.
///
/// Apple's UIKit makes one whenever a segue of a storyboard runs, and hands it to the source's
/// `prepare(for:sender:)` before the transition (developer.apple.com/documentation/uikit/uistoryboardsegue).
/// exthost makes them for the segues a storyboard declares: an embed segue of a container view when
/// the view loads, a segue a control triggers when it is tapped, and a manual one on
/// ``UIViewController/performSegue(withIdentifier:sender:)``; each time the source's
/// ``UIViewController/prepare(for:sender:)`` runs first, with a new destination.
@preconcurrency @MainActor
open class UIStoryboardSegue: NSObject {
    /// The segue's identifier in the storyboard (nil when it has none).
    public let identifier: String?
    /// The view controller the segue starts from.
    public let source: UIViewController
    /// The view controller it leads to.
    public let destination: UIViewController
    /// The transition of the storyboard's segue kind (`show`, `presentation`, …).
    var transition: (() -> Void)?

    /// Apple's `init(identifier:source:destination:)`: a segue (a custom segue class overrides
    /// ``perform()``).
    public init(identifier: String?, source: UIViewController, destination: UIViewController) {
        self.identifier = identifier
        self.source = source
        self.destination = destination
        super.init()
    }

    /// Apple's `perform()`: makes the transition. For the storyboard's kinds: `show` shows the
    /// destination (pushed in a navigation controller, else presented), `presentation` presents it,
    /// `push` pushes it; a segue made in code does nothing unless a subclass overrides this.
    open func perform() { transition?() }
}

/// A segue a storyboard declares on a view controller or a control: made into a
/// ``UIStoryboardSegue`` with a new destination each time it runs.
struct StoryboardSegueTemplate {
    /// The segue's identifier.
    var identifier: String?
    /// The segue's kind as Interface Builder writes it (`show`, `presentation`, `push`, …).
    var kind: String
    /// Makes the destination (a new instance each time).
    var makeDestination: @MainActor () throws -> UIViewController

    /// Prepares and performs the segue from `source`: `prepare(for:sender:)`, then the transition
    /// (`transition`, when given, instead of the kind's).
    @MainActor
    func run(from source: UIViewController, sender: Any?, transition: ((UIViewController) -> Void)? = nil) {
        let destination: UIViewController
        do {
            destination = try makeDestination()
        } catch {
            UIKitDiagnostics.record(
                .storyboardRefused, "the segue '\(identifier ?? kind)' cannot make its destination: \(error)",
                object: source)
            return
        }
        let segue = UIStoryboardSegue(identifier: identifier, source: source, destination: destination)
        segue.transition = { [weak source] in
            guard let source else { return }
            if let transition { return transition(destination) }
            switch kind {
            case "presentation", "modal", "popoverPresentation":
                source.present(destination, animated: true)
            case "push":
                source.navigationController?.pushViewController(destination, animated: true)
            default:
                source.show(destination, sender: sender)
            }
        }
        source.prepare(for: segue, sender: sender)
        segue.perform()
    }
}
