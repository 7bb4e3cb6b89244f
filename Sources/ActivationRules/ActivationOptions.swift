/// Switches for the release checks and the device's adjustments of a payload (types de-duplicated, a web page's extra types, …).
///
/// The defaults behave like a device and like App Store upload.
public struct ActivationOptions: Sendable, Hashable {
    /// Accept rules only development builds may ship: `TRUEPREDICATE`, and dictionary values of the
    /// wrong plist type. Off by default, where both are errors (upload rejects them).
    public var allowDevelopmentRules: Bool
    /// For a payload marked as a Safari web page, add `com.apple.active-webpage` to every attachment
    /// that registers `public.url` (on by default).
    public var addsActiveWebpage: Bool
    /// When the rule fails on the whole payload, try again on only the items with a
    /// `com.apple.active-webpage` attachment, then on only those with `com.apple.webarchive`
    /// (on by default; only payloads with such attachments are retried).
    public var retriesWebpageItems: Bool
    /// Remove repeated identifiers from each `registeredTypeIdentifiers` before matching (on by
    /// default; the device keeps them in a set).
    public var deduplicatesTypes: Bool

    /// Creates options; every device adjustment is on unless switched off.
    public init(
        allowDevelopmentRules: Bool = false, addsActiveWebpage: Bool = true, retriesWebpageItems: Bool = true,
        deduplicatesTypes: Bool = true
    ) {
        self.allowDevelopmentRules = allowDevelopmentRules
        self.addsActiveWebpage = addsActiveWebpage
        self.retriesWebpageItems = retriesWebpageItems
        self.deduplicatesTypes = deduplicatesTypes
    }

    /// The device's behaviour and App Store's checks.
    public static let device = ActivationOptions()
}
