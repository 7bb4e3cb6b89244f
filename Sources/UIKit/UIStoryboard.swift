import ExtensionFoundation
import ExtensionIPC
public import Foundation
import HeadlessScreens

/// `UIStoryboard`: the view controllers of an Interface Builder storyboard, made on request.
///
/// Apple's `UIStoryboard` makes the view controllers Interface Builder archived in a storyboard file
/// of the app's bundle (developer.apple.com/documentation/uikit/uistoryboard). exthost reads the storyboard's XML
/// source (`NAME.storyboard`, at the bundle's top or in an `.lproj` folder) where iOS reads the
/// compiled `NAME.storyboardc`; each view controller is made as the extension's
/// `NSExtensionMainStoryboard` is: `init?(coder:)`, its view tree when the view loads, outlets and
/// actions connected.
///
/// Where iOS raises an Objective-C exception and ends the process — no storyboard of that name, no
/// view controller with that identifier — exthost records the same words as a diagnostic in the
/// share's report (`storyboardRefused`) and carries on: ``instantiateInitialViewController()`` gives
/// nil and ``instantiateViewController(withIdentifier:)`` a plain `UIViewController`.
@preconcurrency @MainActor
open class UIStoryboard: NSObject {
    /// The storyboard, or why it could not be read.
    private let file: Result<StoryboardFile, ExtensionBundleError>
    /// The name it was asked for, as messages name it.
    private let name: String

    /// Apple's `init(name:bundle:)`: the storyboard `name` (without `.storyboard`) of
    /// `storyboardBundleOrNil`, or of the main bundle when nil — in an extension process, the
    /// extension's `.appex` (the bundle iOS makes `Bundle.main` there).
    ///
    /// Apple: "The bundle containing the storyboard file and its related resources. If you specify
    /// nil, this method looks in the main bundle of the current application." A storyboard that is not
    /// there, or is not a storyboard, is reported (iOS raises "Could not find a storyboard named …");
    /// the classes a view controller names are looked up when it is made.
    public init(name: String, bundle storyboardBundleOrNil: Bundle?) {
        self.name = name
        let bundle = storyboardBundleOrNil ?? Self.mainBundle
        let info = bundle.bundleURL.appendingPathComponent("Info.plist").path
        let module = PrincipalName.moduleName(
            forProduct: bundle.object(forInfoDictionaryKey: "CFBundleExecutable") as? String ?? "")
        var missing = false
        do {
            missing = true
            let relative = try StoryboardLocation.find(name, in: bundle.bundleURL, info: info, line: nil)
            missing = false
            file = .success(
                try StoryboardFile(
                    contentsOf: bundle.bundleURL.appendingPathComponent(relative), module: module, bundle: bundle))
        } catch let error as ExtensionBundleError {
            file = .failure(error)
        } catch {
            file = .failure(ExtensionBundleError("\(error)", file: info))
        }
        super.init()
        if case .failure(let error) = file {
            UIKitDiagnostics.record(
                .storyboardRefused,
                missing
                    ? "Could not find a storyboard named '\(name)' in bundle \(bundle.bundlePath) (iOS raises "
                        + "NSInvalidArgumentException and ends the extension); exthost reads the XML source "
                        + "'\(name).storyboard' at the bundle's top or in an .lproj folder"
                    : "the storyboard '\(name)' cannot be read: \(error)", object: self)
        }
    }

    /// A storyboard already read (the extension's `NSExtensionMainStoryboard`).
    init(file: StoryboardFile, name: String) {
        self.file = .success(file)
        self.name = name
        super.init()
    }

    /// The bundle a nil bundle means: the extension's when exthost runs this process as one.
    private static var mainBundle: Bundle {
        ProcessIdentity.environment?.bundlePath.flatMap { Bundle(path: $0) } ?? Bundle.main
    }

    /// Apple's `instantiateInitialViewController()`: a new instance of the storyboard's initial view
    /// controller, or nil when the storyboard has none.
    ///
    /// As Apple documents it, a new instance each call, made with the storyboard's data, and nil when
    /// the storyboard marks no initial view controller. A navigation controller comes with its root
    /// view controller. A class that cannot be made is reported and gives nil.
    open func instantiateInitialViewController() -> UIViewController? {
        guard case .success(let file) = file else { return nil }
        guard file.document["initialViewController"] != nil else { return nil }
        do {
            return adopt(try file.instantiate(try file.initialViewControllerElement()))
        } catch {
            refuse("the initial view controller of storyboard '\(name)' cannot be made: \(error)")
            return nil
        }
    }

    /// Apple's `instantiateInitialViewController(creator:)`: the initial view controller, made by
    /// `block` from the storyboard's coder when given (nil from `block` makes it as
    /// ``instantiateInitialViewController()`` does).
    open func instantiateInitialViewController(creator block: ((NSCoder) -> UIViewController?)?)
        -> UIViewController?
    {
        guard case .success(let file) = file, file.document["initialViewController"] != nil else { return nil }
        do {
            return adopt(try file.instantiate(try file.initialViewControllerElement(), creator: block))
        } catch {
            refuse("the initial view controller of storyboard '\(name)' cannot be made: \(error)")
            return nil
        }
    }

    /// Apple's `instantiateViewController(withIdentifier:)`: a new instance of the view controller
    /// whose Storyboard ID (`storyboardIdentifier`) is `identifier`.
    ///
    /// Apple: "If the specified identifier does not exist in the storyboard file, this method raises
    /// an exception." and "Each time you call this method, it creates a new instance of the view
    /// controller." exthost reports what iOS would raise (NSInvalidArgumentException, "Storyboard
    /// doesn't contain a view controller with identifier …") and returns a plain `UIViewController`.
    open func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
        instantiate(identifier, creator: nil) ?? UIViewController()
    }

    private func instantiate(_ identifier: String, creator: ((NSCoder) -> UIViewController?)?) -> UIViewController? {
        guard case .success(let file) = file else {
            refuse("storyboard '\(name)' could not be read: no view controller '\(identifier)'")
            return nil
        }
        guard let element = file.viewControllerElement(identifiedBy: identifier) else {
            refuse(
                "Storyboard '\(name)' (\(file.path)) doesn't contain a view controller with identifier "
                    + "'\(identifier)' (iOS raises NSInvalidArgumentException and ends the extension)")
            return nil
        }
        do {
            return adopt(try file.instantiate(element, creator: creator))
        } catch {
            refuse("the view controller '\(identifier)' of storyboard '\(name)' cannot be made: \(error)")
            return nil
        }
    }

    /// `controller` (and a navigation controller's children) with this as their ``UIViewController/storyboard``.
    func adopt(_ controller: UIViewController) -> UIViewController {
        controller.storedStoryboard = self
        if let navigation = controller as? UINavigationController {
            for child in navigation.viewControllers where child.storedStoryboard == nil {
                child.storedStoryboard = self
            }
        }
        return controller
    }

    private func refuse(_ message: String) {
        UIKitDiagnostics.record(.storyboardRefused, message, object: self)
    }
}
