// Not a member of the StampsShare target (a membership exception in the project): never compiled.
import SwiftUI

struct DraftEditor: View {
    var body: some View { Text("draft") }
}
