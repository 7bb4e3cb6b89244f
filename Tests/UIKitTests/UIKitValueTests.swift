import Foundation
import Testing
import UIKit

/// UIKit's value types and value-like classes as Apple documents them: colours from hue, saturation
/// and brightness, fonts by name and size, insets, offsets and index paths.
struct UIKitValueTests {
    func components(_ color: UIColor) -> [CGFloat] {
        var red: CGFloat = -1
        var green: CGFloat = -1
        var blue: CGFloat = -1
        var alpha: CGFloat = -1
        color.getRed(&red, green: &green, blue: &blue, alpha: &alpha)
        return [red, green, blue, alpha].map { ($0 * 1000).rounded() / 1000 }
    }

    /// Each sixth of the hue circle at full saturation and brightness is a primary or secondary colour.
    static let hues: [(Double, String)] = [
        (0.0, "#FF0000"), (1.0 / 6, "#FFFF00"), (2.0 / 6, "#00FF00"), (0.5, "#00FFFF"), (4.0 / 6, "#0000FF"),
        (5.0 / 6, "#FF00FF"), (1.0, "#FF0000"), (1.0 / 12, "#FF8000"),
    ]

    @Test(arguments: Self.hues)
    func hueSaturationBrightnessMakeTheColourAppleDescribes(hue: Double, hex: String) {
        #expect(UIColor(hue: CGFloat(hue), saturation: 1, brightness: 1, alpha: 1).hexString == hex)
    }

    @Test func colourComponentsAndVariants() {
        #expect(components(UIColor(hue: 0.25, saturation: 0, brightness: 0.5, alpha: 1)) == [0.5, 0.5, 0.5, 1])
        let p3 = UIColor(displayP3Red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
        #expect(components(p3) == [0.2, 0.4, 0.6, 0.8])
        let faded = p3.withAlphaComponent(0.5)
        #expect(components(faded) == [0.2, 0.4, 0.6, 0.5])
        #expect(faded.hexString == "#33669980")
        var white: CGFloat = -1
        var alpha: CGFloat = -1
        p3.getWhite(&white, alpha: &alpha)
        #expect((white * 1000).rounded() == 400 && alpha == 0.8)
        let dynamic = UIColor { _ in UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
        #expect(dynamic == UIColor(red: 1, green: 0, blue: 0, alpha: 1))
        #expect(dynamic.hash == UIColor(red: 1, green: 0, blue: 0, alpha: 1).hash)
        #expect(dynamic.resolvedColor(with: UITraitCollection.current) == dynamic)
        #expect(dynamic.description == "UIExtendedSRGBColorSpace 1.0 0.0 0.0 1.0")
        #expect(dynamic != p3)
    }

    @Test func fontsByNameAndSize() throws {
        #expect(UIFont(name: "", size: 12) == nil)
        let bold = try #require(UIFont(name: "Helvetica-Bold", size: 17))
        #expect(bold.familyName == "Helvetica" && bold.fontName == "Helvetica-Bold" && bold.pointSize == 17)
        #expect(bold.lineHeight == 20)
        #expect(bold.description == #"font-family: "Helvetica"; font-size: 17pt"#)
        let larger = bold.withSize(24)
        #expect(larger.pointSize == 24 && larger.fontName == "Helvetica-Bold")
        #expect(larger == UIFont(name: "Helvetica-Bold", size: 24))
        #expect(larger.hash == UIFont(name: "Helvetica-Bold", size: 24)?.hash)
        #expect(UIFont.italicSystemFont(ofSize: 13).fontName == ".SFUI-RegularItalic")
        let mono = UIFont.monospacedSystemFont(ofSize: 11, weight: .bold)
        #expect(mono.familyName == ".SF Mono" && mono.pointSize == 11)
        #expect(UIFont.monospacedDigitSystemFont(ofSize: 15, weight: .regular) == UIFont.systemFont(ofSize: 15))
        #expect(UIFont.buttonFontSize == 18 && UIFont.systemFontSize == 14 && UIFont.smallSystemFontSize == 12)
    }

    @Test func insetsOffsetsAndIndexPaths() {
        #expect(NSDirectionalEdgeInsets() == NSDirectionalEdgeInsets(top: 0, leading: 0, bottom: 0, trailing: 0))
        let offset = UIOffset(horizontal: 3, vertical: -2)
        #expect(offset.horizontal == 3 && offset.vertical == -2)
        let rect = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(
            rect.inset(by: UIEdgeInsets(top: 5, left: 10, bottom: 15, right: 20))
                == CGRect(x: 20, y: 25, width: 70, height: 30))
        var path = IndexPath(item: 4, section: 2)
        #expect(path.section == 2 && path.item == 4 && path.row == 4)
        path.item = 7
        path.section = 1
        #expect(path == IndexPath(row: 7, section: 1))
        path.row = 0
        #expect(path.item == 0)
    }
}
