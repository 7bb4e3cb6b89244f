// `import UIKit` brings Foundation too, as it does on iOS (where UIKit re-exports Foundation): an
// extension file that imports only UIKit sees `Bundle`, `URL`, `DispatchGroup`, `UserDefaults`.
@_exported public import Foundation
