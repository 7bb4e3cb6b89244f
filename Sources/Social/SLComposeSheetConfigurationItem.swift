import Dispatch
import ExtensionFoundation
import Foundation
package import UIKit

/// The handler a configuration item runs when the person taps its row: on the main thread, but
/// declared without an actor as Apple declares it (`() -> Void`), so a method reference such as
/// `item.tapHandler = self.showAccounts` compiles in Swift 5 mode without a warning; a closure
/// written in the compose controller's methods is main-actor isolated as that method is.
public typealias SLComposeSheetConfigurationItemTapHandler = () -> Void

/// `SLComposeSheetConfigurationItem`: a row of the compose sheet under the text — a title, a value
/// (or a spinner while ``valuePending``), and what a tap does. Apple: "create as many configuration
/// items as you need, place them in an array, and return the array in your implementation of
/// `configurationItems`"
/// (https://developer.apple.com/documentation/social/slcomposesheetconfigurationitem).
///
/// The row shows the item's current state: setting ``title``, ``value`` or ``valuePending`` updates it.
/// Set them on the main thread: a change from another thread is reported as UIKit used off the main
/// thread (the row catches up at the next turn of the main queue).
///
/// One difference from iOS: the class is not an `NSObject` subclass here, because Swift cannot
/// override `NSObject`'s `init()` with Apple's failable `init!()` — and code written for iOS
/// unwraps the result (`SLComposeSheetConfigurationItem()!`, `item?.title`, `guard let item = …`).
/// It is `Hashable` by identity, as an `NSObject` is.
open class SLComposeSheetConfigurationItem: Hashable {
    /// The row that shows the item, read and written on the main thread only.
    final class RowLink: @unchecked Sendable {
        // Set and cleared by the row on the main actor; read by the item only to hop there.
        weak var row: ConfigurationRow?
    }

    let link = RowLink()

    /// A configuration item with no title, no value and no tap handler (Apple: "Returns a
    /// configuration item"; declared `init!()`, so the result is unwrapped as on iOS).
    public init!() {}

    // Apple declares these implicitly unwrapped:

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The name of the setting, shown on the left of the row (Apple: "The name of the configuration
    /// item stored as a localized string").
    open var title: String! { didSet { changed("SLComposeSheetConfigurationItem.title") } }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// The current value, shown on the right of the row (Apple: "The current value or setting of the
    /// configuration item").
    open var value: String! { didSet { changed("SLComposeSheetConfigurationItem.value") } }

    /// Whether the value is still coming: the row shows a spinner instead of it (Apple: "Set this
    /// property to true if a progress indicator should be displayed, to show users that a
    /// configuration item's value is about to display. The default value of this property is false").
    open var valuePending = false { didSet { changed("SLComposeSheetConfigurationItem.valuePending") } }

    // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
    /// What a tap on the row does (Apple: "A custom tap handler block that handles user interaction
    /// with a configuration item"); typically it calls
    /// ``SLComposeServiceViewController/pushConfigurationViewController(_:)``. The scripted user's
    /// `tap TITLE` taps the row.
    open var tapHandler: SLComposeSheetConfigurationItemTapHandler!

    /// Whether `lhs` and `rhs` are the same item.
    public static func == (lhs: SLComposeSheetConfigurationItem, rhs: SLComposeSheetConfigurationItem) -> Bool {
        lhs === rhs
    }

    /// Hashes the item's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    private func changed(_ api: StaticString) {
        UIKitThread.check(api, self)
        let link = link
        if UIKitThread.isMain {
            MainActor.assumeIsolated { link.row?.refresh() }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated { link.row?.refresh() } }
        }
    }
}

extension SLComposeSheetConfigurationItem: @MainActor ScreenAttributable {
    /// Whether the item's row is on `screen` (so a change made off the main thread is reported there).
    package func isOnScreen(_ screen: ExtensionScreen) -> Bool {
        guard let window = link.row?.window else { return false }
        return window === screen.window
    }
}

/// The compose sheet's row for one configuration item: the title on the left, the value (or a
/// spinner) on the right; a tap runs the item's tap handler.
@MainActor
final class ConfigurationRow: UIControl {
    let item: SLComposeSheetConfigurationItem
    private let titleLabel = UILabel()
    private let valueLabel = UILabel()
    private let spinner = UIActivityIndicatorView(style: .medium)

    init(item: SLComposeSheetConfigurationItem, frame: CGRect) {
        self.item = item
        super.init(frame: frame)
        titleLabel.frame = CGRect(x: 16, y: 0, width: frame.width / 2 - 16, height: frame.height)
        valueLabel.frame = CGRect(x: frame.width / 2, y: 0, width: frame.width / 2 - 16, height: frame.height)
        valueLabel.textAlignment = .right
        valueLabel.textColor = .secondaryLabel
        spinner.frame = CGRect(x: frame.width - 40, y: (frame.height - 20) / 2, width: 20, height: 20)
        addSubview(titleLabel)
        addSubview(valueLabel)
        addSubview(spinner)
        addAction(UIAction { [weak self] _ in self?.item.tapHandler?() }, for: .primaryActionTriggered)
        item.link.row = self
        refresh()
    }

    required init?(coder: NSCoder) { nil }

    /// Shows the item's current title, value and pending state.
    func refresh() {
        titleLabel.text = item.title
        valueLabel.text = item.valuePending ? nil : item.value
        valueLabel.isHidden = item.valuePending
        if item.valuePending { spinner.startAnimating() } else { spinner.stopAnimating() }
    }
}
