// On Apple's platforms `import Foundation` (and so `import UIKit`) brings `URLSession`,
// `URLRequest` and `HTTPURLResponse`; swift-corelibs-foundation keeps them in a module of their own,
// FoundationNetworking. Share extensions that post what they were given to a server call them with
// only `import UIKit` (docs/real-code-trial.md): every module that re-exports this one (UIKit,
// Social, UniformTypeIdentifiers, MobileCoreServices) brings them too.
@_exported public import FoundationNetworking
