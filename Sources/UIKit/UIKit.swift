// `import UIKit` brings Foundation, as on iOS (where UIKit re-exports Foundation), and Apple's
// extension types (NSItemProvider, NSExtensionContext, …), which iOS has in Foundation.
@_exported public import ExtensionFoundation
@_exported public import Foundation
