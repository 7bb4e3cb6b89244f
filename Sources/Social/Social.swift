// `import Social` gives UIKit and Foundation too, as on iOS (Social's headers import both): Xcode's
// template imports only UIKit and Social and uses NSNumber (charactersRemaining), Thread, URL.
@_exported public import Foundation
@_exported public import UIKit
