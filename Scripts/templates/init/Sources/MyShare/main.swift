// On iOS the system starts an extension from NSExtensionPrincipalClass; on Linux this one line does.
import Foundation
import UniformTypeIdentifiers

exit(NSExtensionMain(ShareHandler.self))
