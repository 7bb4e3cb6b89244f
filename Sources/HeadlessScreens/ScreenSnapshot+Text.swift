extension ScreenSnapshot {
    /// The screen as indented text, one view a line, layers back to front:
    ///
    /// ```
    /// screen 393×852
    /// ▸ sheet ShareViewController (pageSheet)
    ///   UIView UIView (0,0 393×852) background #FFFFFF
    ///     button UIButton "Post" #post [tappable]
    /// ▸ alert UIAlertController "Saved" — "Open the app?"
    ///   alertAction "OK" [tappable]
    /// ```
    ///
    /// A hidden view's subviews are summarised in one line; the JSON form keeps them.
    public var text: String {
        var lines = ["screen \(ViewNode.Frame.number(width))×\(ViewNode.Frame.number(height))"]
        if layers.isEmpty {
            lines.append(closed == true ? "(the extension's sheet has closed)" : "(nothing on screen)")
        }
        for layer in layers {
            var header = "▸ \(layer.kind.rawValue) \(layer.controller)"
            if let style = layer.presentationStyle { header += " (\(style))" }
            if let title = layer.title { header += " \(TextQuote.quote(title))" }
            if let message = layer.message { header += " — \(TextQuote.quote(message))" }
            lines.append(header)
            layer.root.appendLines(to: &lines, depth: 1)
        }
        return lines.joined(separator: "\n")
    }
}

extension ViewNode {
    /// This node's line: role, class when it differs from the role's UIKit class, text, identifier,
    /// flags, frame and colours.
    public var line: String {
        var parts = [role.rawValue]
        if type != role.defaultClass { parts.append(type) }
        if let text, !(text.isEmpty && placeholder != nil) {
            parts.append(
                secure == true ? TextQuote.quote(String(repeating: "•", count: text.count)) : TextQuote.quote(text))
        }
        if let detail { parts.append("— " + TextQuote.quote(detail)) }
        if let placeholder, text?.isEmpty ?? true { parts.append("placeholder " + TextQuote.quote(placeholder)) }
        if let identifier { parts.append("#" + identifier) }
        if let accessibilityLabel, accessibilityLabel != text {
            parts.append("label " + TextQuote.quote(accessibilityLabel))
        }
        if let style { parts.append("style \(style)") }
        var flags: [String] = []
        if hidden == true { flags.append("hidden") }
        if let alpha { flags.append("alpha \(Frame.number(alpha))") }
        if enabled == false { flags.append("disabled") }
        if interactive == false { flags.append("no interaction") }
        if selected == true { flags.append("selected") }
        if firstResponder == true { flags.append("keyboard") }
        if animating == true { flags.append("animating") }
        if tappable == true { flags.append("tappable") }
        if !flags.isEmpty { parts.append("[" + flags.joined(separator: ", ") + "]") }
        if !frame.isZero { parts.append(frame.description) }
        if let progress { parts.append("progress \(Frame.number(progress))") }
        if let image {
            parts.append(
                "image \(Frame.number(image.width))×\(Frame.number(image.height))@\(Frame.number(image.scale))x")
        }
        if let background { parts.append("background \(background)") }
        if let gestures, !gestures.isEmpty { parts.append("gestures " + gestures.joined(separator: ",")) }
        return parts.joined(separator: " ")
    }

    func appendLines(to lines: inout [String], depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        lines.append(indent + line)
        for constraint in constraints ?? [] { lines.append(indent + "  ⌁ " + constraint) }
        if hidden == true, !children.isEmpty {
            let count = children.reduce(0) { $0 + $1.allNodes.count }
            lines.append(indent + "  (\(count) view\(count == 1 ? "" : "s") inside, hidden)")
            return
        }
        for child in children { child.appendLines(to: &lines, depth: depth + 1) }
    }
}

extension ViewNode.Role {
    /// The UIKit class that plays this role by default (left out of a node's line when the node is one).
    var defaultClass: String {
        switch self {
        case .view: "UIView"
        case .window: "UIWindow"
        case .label: "UILabel"
        case .button: "UIButton"
        case .control: "UIControl"
        case .textField: "UITextField"
        case .textView: "UITextView"
        case .image: "UIImageView"
        case .stack: "UIStackView"
        case .activityIndicator: "UIActivityIndicatorView"
        case .progress: "UIProgressView"
        case .scrollView: "UIScrollView"
        case .table: "UITableView"
        case .cell: "UITableViewCell"
        case .navigationBar: "UINavigationBar"
        case .barButton: "UIBarButtonItem"
        case .backButton: "UIBarButtonItem"
        case .alert: "UIAlertController"
        case .alertAction: "UIAlertAction"
        }
    }
}

extension ViewNode.Frame {
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// Quoting text for one-line output: newlines and quotes escaped.
enum TextQuote {
    static func quote(_ text: String) -> String {
        var escaped = "\""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
