// `import Social` gives UIKit too, as on iOS (Social's headers import UIKit).
@_exported public import UIKit
