import Foundation

// The fixed colours keep Apple's component values; the system colours are the light-mode values
// Apple's Human Interface Guidelines list.
extension UIColor {
    /// Black (grey 0).
    public class var black: UIColor { UIColor(system: "black", 0, 0, 0) }
    /// White (grey 1).
    public class var white: UIColor { UIColor(system: "white", 255, 255, 255) }
    /// Transparent (grey 0, opacity 0).
    public class var clear: UIColor { UIColor(system: "clear", 0, 0, 0, 0) }
    /// Grey 1/3.
    public class var darkGray: UIColor { UIColor(system: "darkGray", 85, 85, 85) }
    /// Grey 2/3.
    public class var lightGray: UIColor { UIColor(system: "lightGray", 170, 170, 170) }
    /// Grey 0.5.
    public class var gray: UIColor { UIColor(system: "gray", 128, 128, 128) }
    /// RGB 1, 0, 0.
    public class var red: UIColor { UIColor(system: "red", 255, 0, 0) }
    /// RGB 0, 1, 0.
    public class var green: UIColor { UIColor(system: "green", 0, 255, 0) }
    /// RGB 0, 0, 1.
    public class var blue: UIColor { UIColor(system: "blue", 0, 0, 255) }
    /// RGB 0, 1, 1.
    public class var cyan: UIColor { UIColor(system: "cyan", 0, 255, 255) }
    /// RGB 1, 1, 0.
    public class var yellow: UIColor { UIColor(system: "yellow", 255, 255, 0) }
    /// RGB 1, 0, 1.
    public class var magenta: UIColor { UIColor(system: "magenta", 255, 0, 255) }
    /// RGB 1, 0.5, 0.
    public class var orange: UIColor { UIColor(system: "orange", 255, 128, 0) }
    /// RGB 0.5, 0, 0.5.
    public class var purple: UIColor { UIColor(system: "purple", 128, 0, 128) }
    /// RGB 0.6, 0.4, 0.2.
    public class var brown: UIColor { UIColor(system: "brown", 153, 102, 51) }
    /// Black text on a light background.
    public class var darkText: UIColor { UIColor(system: "darkText", 0, 0, 0) }
    /// White text at 60 % on a dark background.
    public class var lightText: UIColor { UIColor(system: "lightText", 255, 255, 255, 0.6) }

    /// The system blue.
    public class var systemBlue: UIColor { UIColor(system: "systemBlue", 0, 122, 255) }
    /// The system red.
    public class var systemRed: UIColor { UIColor(system: "systemRed", 255, 59, 48) }
    /// The system green.
    public class var systemGreen: UIColor { UIColor(system: "systemGreen", 52, 199, 89) }
    /// The system orange.
    public class var systemOrange: UIColor { UIColor(system: "systemOrange", 255, 149, 0) }
    /// The system yellow.
    public class var systemYellow: UIColor { UIColor(system: "systemYellow", 255, 204, 0) }
    /// The system pink.
    public class var systemPink: UIColor { UIColor(system: "systemPink", 255, 45, 85) }
    /// The system purple.
    public class var systemPurple: UIColor { UIColor(system: "systemPurple", 175, 82, 222) }
    /// The system teal.
    public class var systemTeal: UIColor { UIColor(system: "systemTeal", 48, 176, 199) }
    /// The system indigo.
    public class var systemIndigo: UIColor { UIColor(system: "systemIndigo", 88, 86, 214) }
    /// The system brown.
    public class var systemBrown: UIColor { UIColor(system: "systemBrown", 162, 132, 94) }
    /// The system mint.
    public class var systemMint: UIColor { UIColor(system: "systemMint", 0, 199, 190) }
    /// The system cyan.
    public class var systemCyan: UIColor { UIColor(system: "systemCyan", 50, 173, 230) }
    /// The system grey.
    public class var systemGray: UIColor { UIColor(system: "systemGray", 142, 142, 147) }
    /// The second system grey.
    public class var systemGray2: UIColor { UIColor(system: "systemGray2", 174, 174, 178) }
    /// The third system grey.
    public class var systemGray3: UIColor { UIColor(system: "systemGray3", 199, 199, 204) }
    /// The fourth system grey.
    public class var systemGray4: UIColor { UIColor(system: "systemGray4", 209, 209, 214) }
    /// The fifth system grey.
    public class var systemGray5: UIColor { UIColor(system: "systemGray5", 229, 229, 234) }
    /// The sixth system grey.
    public class var systemGray6: UIColor { UIColor(system: "systemGray6", 242, 242, 247) }
    /// The tint colour (the system blue unless a view sets its own).
    public class var tintColor: UIColor { UIColor(system: "tintColor", 0, 122, 255) }

    /// Primary text.
    public class var label: UIColor { UIColor(system: "label", 0, 0, 0) }
    /// Secondary text.
    public class var secondaryLabel: UIColor { UIColor(system: "secondaryLabel", 60, 60, 67, 0.6) }
    /// Tertiary text.
    public class var tertiaryLabel: UIColor { UIColor(system: "tertiaryLabel", 60, 60, 67, 0.3) }
    /// Quaternary text.
    public class var quaternaryLabel: UIColor { UIColor(system: "quaternaryLabel", 60, 60, 67, 0.18) }
    /// Placeholder text.
    public class var placeholderText: UIColor { UIColor(system: "placeholderText", 60, 60, 67, 0.3) }
    /// Links.
    public class var link: UIColor { UIColor(system: "link", 0, 122, 255) }
    /// A thin separator that lets what is under it show.
    public class var separator: UIColor { UIColor(system: "separator", 60, 60, 67, 0.29) }
    /// An opaque separator.
    public class var opaqueSeparator: UIColor { UIColor(system: "opaqueSeparator", 198, 198, 200) }
    /// The main background (Apple: "a white primary background in a light environment").
    public class var systemBackground: UIColor { UIColor(system: "systemBackground", 255, 255, 255) }
    /// Content on the main background.
    public class var secondarySystemBackground: UIColor {
        UIColor(system: "secondarySystemBackground", 242, 242, 247)
    }
    /// Content on secondary backgrounds.
    public class var tertiarySystemBackground: UIColor { UIColor(system: "tertiarySystemBackground", 255, 255, 255) }
    /// A grouped table's background.
    public class var systemGroupedBackground: UIColor { UIColor(system: "systemGroupedBackground", 242, 242, 247) }
    /// Content on a grouped background.
    public class var secondarySystemGroupedBackground: UIColor {
        UIColor(system: "secondarySystemGroupedBackground", 255, 255, 255)
    }
    /// Content on secondary grouped backgrounds.
    public class var tertiarySystemGroupedBackground: UIColor {
        UIColor(system: "tertiarySystemGroupedBackground", 242, 242, 247)
    }
    /// A grouped table's background (before iOS 13).
    public class var groupTableViewBackground: UIColor { UIColor(system: "groupTableViewBackground", 242, 242, 247) }
    /// A fill for thin shapes.
    public class var systemFill: UIColor { UIColor(system: "systemFill", 120, 120, 128, 0.2) }
    /// A fill for medium shapes.
    public class var secondarySystemFill: UIColor { UIColor(system: "secondarySystemFill", 120, 120, 128, 0.16) }
    /// A fill for large shapes.
    public class var tertiarySystemFill: UIColor { UIColor(system: "tertiarySystemFill", 118, 118, 128, 0.12) }
    /// A fill for the largest areas.
    public class var quaternarySystemFill: UIColor { UIColor(system: "quaternarySystemFill", 116, 116, 128, 0.08) }
}
