// On iOS `import UIKit` brings Foundation (URL, UserDefaults, DispatchQueue): extension code
// written for iOS often imports nothing else (the cross-platform frameworks' share templates do
// exactly that), so UIKit re-exports it here too.
@_exported public import Foundation
