import ExtensionFoundation
public import Foundation

/// `UIColor`: a colour, kept as sRGB components (extended range: values are not clamped, as Apple
/// documents for apps linked for iOS 10 or later; alpha is clamped to 0…1).
///
/// The system colours (`.systemBackground`, `.label`, `.systemBlue`, …) are dynamic on iOS; the
/// headless screen is a phone in light mode, so they resolve to their light values.
open class UIColor: NSObject, @unchecked Sendable {
    // Immutable after init: `@unchecked Sendable` needs no lock (Apple's UIColor is Sendable too).
    let red: CGFloat
    let green: CGFloat
    let blue: CGFloat
    let alpha: CGFloat
    /// The name of a system colour, for the screen's text (`systemBlue`).
    let systemName: String?

    /// A colour from RGB components and an opacity (Apple: "the input value is never clamped";
    /// "Alpha values below 0.0 are interpreted as 0.0, and values above 1.0 are interpreted as 1.0").
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = min(1, max(0, alpha))
        self.systemName = nil
        super.init()
    }

    /// A grey of `white` (0 black … 1 white) and an opacity.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from hue, saturation and brightness (each 0…1) and an opacity.
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h) % 6
        let f = h - CGFloat(Int(h))
        let p = brightness * (1 - saturation)
        let q = brightness * (1 - saturation * f)
        let t = brightness * (1 - saturation * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) =
            switch sector {
            case 0: (brightness, t, p)
            case 1: (q, brightness, p)
            case 2: (p, brightness, t)
            case 3: (p, q, brightness)
            case 4: (t, p, brightness)
            default: (brightness, p, q)
            }
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }

    /// A colour in the Display P3 space (kept as its components: nothing is drawn).
    public convenience init(displayP3Red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: displayP3Red, green: green, blue: blue, alpha: alpha)
    }

    /// A colour whose value depends on the traits; resolved once with the headless screen's traits
    /// (light mode, compact width).
    public convenience init(dynamicProvider: @escaping @Sendable (UITraitCollection) -> UIColor) {
        self.init(copying: dynamicProvider(UITraitCollection.current))
    }

    /// The colour set `name` of the main bundle's asset catalog (`Assets.xcassets/name.colorset`),
    /// its universal (light) appearance; nil when there is none, as on iOS.
    public convenience init?(named name: String) {
        self.init(named: name, in: nil, compatibleWith: nil)
    }

    /// The colour set `name` of `bundle`'s asset catalog (nil: the main bundle).
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?)
    {
        guard let color = AssetCatalog.colorComponents(named: name, in: bundle ?? .main) else { return nil }
        self.init(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    init(copying color: UIColor) {
        red = color.red
        green = color.green
        blue = color.blue
        alpha = color.alpha
        systemName = color.systemName
        super.init()
    }

    init(system name: String, _ red: Int, _ green: Int, _ blue: Int, _ alpha: CGFloat = 1) {
        self.red = CGFloat(red) / 255
        self.green = CGFloat(green) / 255
        self.blue = CGFloat(blue) / 255
        self.alpha = alpha
        self.systemName = name
        super.init()
    }

    /// The same colour with opacity `alpha`.
    open func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The colour for `traitCollection` (the same colour: system colours are resolved to light mode).
    open func resolvedColor(with traitCollection: UITraitCollection) -> UIColor { self }

    /// The RGB components and opacity.
    /// - Returns: `true` (the colour is always RGB here).
    @discardableResult
    open func getRed(
        _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
        blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
    ) -> Bool {
        red?.pointee = self.red
        green?.pointee = self.green
        blue?.pointee = self.blue
        alpha?.pointee = self.alpha
        return true
    }

    /// The grey level (the mean of the components) and opacity.
    @discardableResult
    open func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
        white?.pointee = (red + green + blue) / 3
        alpha?.pointee = self.alpha
        return true
    }

    /// Equal when the components and opacity are.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UIColor else { return false }
        return red == other.red && green == other.green && blue == other.blue && alpha == other.alpha
    }

    /// A hash of the components.
    open override var hash: Int {
        var hasher = Hasher()
        for value in [red, green, blue, alpha] { hasher.combine(value) }
        return hasher.finalize()
    }

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque (components clamped to 0…1).
    public var hexString: String {
        func byte(_ value: CGFloat) -> String {
            let clamped = Int((min(1, max(0, value)) * 255).rounded())
            let digits = String(clamped, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(red) + byte(green) + byte(blue) + (alpha < 1 ? byte(alpha) : "")
    }

    /// `UIExtendedSRGBColorSpace 1 0 0 1`, with the system name when it has one.
    open override var description: String {
        "UIExtendedSRGBColorSpace \(red) \(green) \(blue) \(alpha)" + (systemName.map { " (\($0))" } ?? "")
    }
}
