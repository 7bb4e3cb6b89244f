public import ExtensionFoundation
public import Foundation

extension UIImage {
    /// The image named `name` in `bundle` (nil: the main bundle), for `traitCollection` (the headless
    /// phone's traits pick the 3× variant first).
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?)
    {
        guard let path = AssetCatalog.imagePath(named: name, in: bundle ?? .main) else { return nil }
        self.init(contentsOfFile: path)
    }
}

/// `UIImagePNGRepresentation`: the image as PNG data (the function iOS had before `UIImage.pngData()`).
public func UIImagePNGRepresentation(_ image: UIImage) -> Data? { image.pngData() }

/// `UIImageJPEGRepresentation`: the image as JPEG data at `compressionQuality`.
public func UIImageJPEGRepresentation(_ image: UIImage, _ compressionQuality: CGFloat) -> Data? {
    image.jpegData(compressionQuality: compressionQuality)
}
