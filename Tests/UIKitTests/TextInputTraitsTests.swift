import Testing
import UIKit

/// `UITextInputTraits` as `UITextField` and `UITextView` adopt it: iOS's defaults, and one value per
/// input whichever way it is set.
@Suite @MainActor struct TextInputTraitsTests {
    @Test func aFieldAndATextViewStartWithIOSDefaults() {
        let inputs: [any UITextInputTraits] = [UITextField(), UITextView()]
        for input in inputs {
            #expect(input.keyboardType == .default && input.returnKeyType == .default)
            #expect(input.autocapitalizationType == .sentences && input.autocorrectionType == .default)
            #expect(input.spellCheckingType == .default && input.keyboardAppearance == .default)
            #expect(!input.isSecureTextEntry && input.textContentType == nil)
        }
    }

    @Test func aTraitSetThroughTheProtocolIsTheInputsOwn() {
        let field = UITextField()
        let view = UITextView()
        let inputs: [any UITextInputTraits] = [field, view]
        for input in inputs {
            input.keyboardType = .emailAddress
            input.isSecureTextEntry = true
            input.textContentType = .password
        }
        #expect(field.keyboardType == .emailAddress && field.isSecureTextEntry && field.textContentType == .password)
        #expect(view.keyboardType == .emailAddress && view.isSecureTextEntry && view.textContentType == .password)
        field.keyboardType = .numberPad
        #expect(field.keyboardType == .numberPad && view.keyboardType == .emailAddress)
    }
}
