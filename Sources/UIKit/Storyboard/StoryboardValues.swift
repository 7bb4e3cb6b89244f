import Foundation

/// How Interface Builder writes values in a storyboard's XML, read into UIKit's types.
enum StoryboardValues {
    /// `YES`/`NO` (also `true`/`false`).
    static func bool(_ text: String?) -> Bool? {
        switch text {
        case "YES", "true": true
        case "NO", "false": false
        default: nil
        }
    }

    /// A number (`17`, `0.5`).
    static func double(_ text: String?) -> Double? { text.flatMap { Double($0) } }

    /// `<rect key="frame" x= y= width= height=/>`.
    static func rect(_ element: LocatedXML.Element?) -> CGRect? {
        guard let element, let width = double(element["width"]), let height = double(element["height"]) else {
            return nil
        }
        return CGRect(x: double(element["x"]) ?? 0, y: double(element["y"]) ?? 0, width: width, height: height)
    }

    /// `<color …/>`: components (`red green blue alpha`, `white alpha`), or a system colour by name
    /// (`systemColor="systemBackgroundColor"`, the older `cocoaTouchSystemColor="darkTextColor"`).
    static func color(_ element: LocatedXML.Element?) -> UIColor? {
        guard let element else { return nil }
        let alpha = CGFloat(double(element["alpha"]) ?? 1)
        if let red = double(element["red"]), let green = double(element["green"]), let blue = double(element["blue"]) {
            return UIColor(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: alpha)
        }
        if let white = double(element["white"]) { return UIColor(white: CGFloat(white), alpha: alpha) }
        if let name = element["systemColor"] ?? element["cocoaTouchSystemColor"] {
            return systemColor(name)
        }
        return nil
    }

    /// The system colour Interface Builder names `name` (`systemBackgroundColor`, `labelColor`).
    static func systemColor(_ name: String) -> UIColor? {
        let base = name.hasSuffix("Color") ? String(name.dropLast(5)) : name
        let colors: [String: UIColor] = [
            "black": .black, "white": .white, "clear": .clear, "darkGray": .darkGray, "lightGray": .lightGray,
            "gray": .gray, "red": .red, "green": .green, "blue": .blue, "cyan": .cyan, "yellow": .yellow,
            "magenta": .magenta, "orange": .orange, "purple": .purple, "brown": .brown, "darkText": .darkText,
            "lightText": .lightText, "systemBlue": .systemBlue, "systemRed": .systemRed, "systemGreen": .systemGreen,
            "systemOrange": .systemOrange, "systemYellow": .systemYellow, "systemPink": .systemPink,
            "systemPurple": .systemPurple, "systemTeal": .systemTeal, "systemIndigo": .systemIndigo,
            "systemBrown": .systemBrown, "systemMint": .systemMint, "systemCyan": .systemCyan,
            "systemGray": .systemGray, "systemGray2": .systemGray2, "systemGray3": .systemGray3,
            "systemGray4": .systemGray4, "systemGray5": .systemGray5, "systemGray6": .systemGray6,
            "tint": .tintColor, "label": .label, "secondaryLabel": .secondaryLabel, "tertiaryLabel": .tertiaryLabel,
            "quaternaryLabel": .quaternaryLabel, "placeholderText": .placeholderText, "link": .link,
            "separator": .separator, "opaqueSeparator": .opaqueSeparator, "systemBackground": .systemBackground,
            "secondarySystemBackground": .secondarySystemBackground,
            "tertiarySystemBackground": .tertiarySystemBackground, "systemGroupedBackground": .systemGroupedBackground,
            "secondarySystemGroupedBackground": .secondarySystemGroupedBackground,
            "tertiarySystemGroupedBackground": .tertiarySystemGroupedBackground,
            "groupTableViewBackground": .groupTableViewBackground, "systemFill": .systemFill,
            "secondarySystemFill": .secondarySystemFill, "tertiarySystemFill": .tertiarySystemFill,
            "quaternarySystemFill": .quaternarySystemFill,
        ]
        return colors[base]
    }

    /// `<fontDescription type="system" pointSize="17"/>`, `type="boldSystem"`, `style="UICTFontTextStyleBody"`.
    @MainActor
    static func font(_ element: LocatedXML.Element?) -> UIFont? {
        guard let element else { return nil }
        if let style = element["style"] { return UIFont.preferredFont(forTextStyle: UIFont.TextStyle(rawValue: style)) }
        let size = CGFloat(double(element["pointSize"]) ?? 17)
        switch element["type"] {
        case "boldSystem": return .boldSystemFont(ofSize: size)
        case "italicSystem": return .italicSystemFont(ofSize: size)
        case "system", nil:
            let weights: [String: UIFont.Weight] = [
                "ultraLight": .ultraLight, "thin": .thin, "light": .light, "medium": .medium, "semibold": .semibold,
                "bold": .bold, "heavy": .heavy, "black": .black,
            ]
            return .systemFont(ofSize: size, weight: element["weight"].flatMap { weights[$0] } ?? .regular)
        default:
            return element["name"].flatMap { UIFont(name: $0, size: size) } ?? .systemFont(ofSize: size)
        }
    }

    /// `textAlignment="center"`.
    static func textAlignment(_ text: String?) -> NSTextAlignment? {
        switch text {
        case "left": .left
        case "center": .center
        case "right": .right
        case "justified": .justified
        case "natural": .natural
        default: nil
        }
    }

    /// `buttonType="system"` (`roundedRect` is the system button too).
    static func buttonType(_ text: String?) -> UIButton.ButtonType? {
        switch text {
        case "custom": .custom
        case "system", "roundedRect": .system
        case "detailDisclosure": .detailDisclosure
        case "infoLight": .infoLight
        case "infoDark": .infoDark
        case "contactAdd": .contactAdd
        case "close": .close
        default: nil
        }
    }

    /// `eventType="touchUpInside"`.
    static func event(_ text: String?) -> UIControl.Event? {
        let events: [String: UIControl.Event] = [
            "touchDown": .touchDown, "touchDownRepeat": .touchDownRepeat, "touchDragInside": .touchDragInside,
            "touchDragOutside": .touchDragOutside, "touchDragEnter": .touchDragEnter, "touchDragExit": .touchDragExit,
            "touchUpInside": .touchUpInside, "touchUpOutside": .touchUpOutside, "touchCancel": .touchCancel,
            "valueChanged": .valueChanged, "primaryActionTriggered": .primaryActionTriggered,
            "editingDidBegin": .editingDidBegin, "editingChanged": .editingChanged, "editingDidEnd": .editingDidEnd,
            "editingDidEndOnExit": .editingDidEndOnExit,
        ]
        return text.flatMap { events[$0] }
    }

    /// A layout attribute as a `<constraint>` names it (`top`, `centerX`); margins are not recorded.
    static func attribute(_ text: String?) -> NSLayoutConstraint.Attribute? {
        let attributes: [String: NSLayoutConstraint.Attribute] = [
            "left": .left, "right": .right, "top": .top, "bottom": .bottom, "leading": .leading,
            "trailing": .trailing, "width": .width, "height": .height, "centerX": .centerX, "centerY": .centerY,
            "lastBaseline": .lastBaseline, "firstBaseline": .firstBaseline, "baseline": .lastBaseline,
        ]
        return text.flatMap { attributes[$0] }
    }

    /// `multiplier="2"` or an aspect ratio `multiplier="16:9"`.
    static func multiplier(_ text: String?) -> CGFloat {
        guard let text else { return 1 }
        let parts = text.split(separator: ":")
        if parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]), b != 0 { return CGFloat(a / b) }
        return CGFloat(Double(text) ?? 1)
    }

    /// `axis="vertical"`.
    static func axis(_ text: String?) -> NSLayoutConstraint.Axis? {
        switch text {
        case "vertical": .vertical
        case "horizontal": .horizontal
        default: nil
        }
    }

    /// A stack's `alignment`.
    static func stackAlignment(_ text: String?) -> UIStackView.Alignment? {
        switch text {
        case "fill": .fill
        case "leading", "top": .leading
        case "firstBaseline": .firstBaseline
        case "center": .center
        case "trailing", "bottom": .trailing
        case "lastBaseline", "baseline": .lastBaseline
        default: nil
        }
    }

    /// A stack's `distribution`.
    static func stackDistribution(_ text: String?) -> UIStackView.Distribution? {
        switch text {
        case "fill": .fill
        case "fillEqually": .fillEqually
        case "fillProportionally": .fillProportionally
        case "equalSpacing": .equalSpacing
        case "equalCentering": .equalCentering
        default: nil
        }
    }
}
