/// What the screen shows at one moment: the extension's sheet, and above it whatever it presented
/// (view controllers, alerts), front last.
///
/// The text form (``text``) is what the report prints; the JSON form is the same tree.
public struct ScreenSnapshot: Codable, Sendable, Equatable {
    /// One presented layer: the sheet the extension's principal view controller shows, or
    /// something it presented on top.
    public struct Layer: Codable, Sendable, Equatable {
        /// How the layer came on screen.
        public enum Kind: String, Codable, Sendable {
            /// The extension's own sheet (its principal view controller).
            case sheet
            /// A view controller presented with `present(_:animated:completion:)`.
            case presented
            /// A `UIAlertController` in the `.alert` style.
            case alert
            /// A `UIAlertController` in the `.actionSheet` style.
            case actionSheet
        }

        /// How it came on screen.
        public var kind: Kind
        /// The class of its view controller (`ShareViewController`, `UIAlertController`).
        public var controller: String
        /// `modalPresentationStyle` as presented (`pageSheet`, `fullScreen`, …).
        public var presentationStyle: String?
        /// The view controller's title, or the alert's title.
        public var title: String?
        /// The alert's message.
        public var message: String?
        /// The layer's view tree (for an alert, its box with the text fields and actions).
        public var root: ViewNode

        /// A layer.
        public init(
            kind: Kind, controller: String, presentationStyle: String? = nil, title: String? = nil,
            message: String? = nil, root: ViewNode
        ) {
            self.kind = kind
            self.controller = controller
            self.presentationStyle = presentationStyle
            self.title = title
            self.message = message
            self.root = root
        }
    }

    /// The screen's width in points.
    public var width: Double
    /// The screen's height in points.
    public var height: Double
    /// What is on screen, back to front; empty once the sheet has closed.
    public var layers: [Layer]
    /// `true` once the extension's sheet has gone (posted, cancelled, dismissed, or the request ended).
    public var closed: Bool?

    /// A screen.
    public init(width: Double, height: Double, layers: [Layer], closed: Bool? = nil) {
        self.width = width
        self.height = height
        self.layers = layers
        self.closed = closed
    }

    /// The front layer: the one a finger reaches.
    public var front: Layer? { layers.last }

    /// Every node of every layer, back to front, depth first.
    public var allNodes: [ViewNode] { layers.flatMap(\.root.allNodes) }
}
