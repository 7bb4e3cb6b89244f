import ExtensionFoundation
import Foundation
import HeadlessScreens
import Testing

@testable import UIKit

/// An extension that builds its interface in code, as the cross-platform share templates do.
final class CodeBuiltViewController: UIViewController {
    var log: [String] = []
    let status = UILabel()
    let saveButton = UIButton(type: .system)
    let spinner = UIActivityIndicatorView(style: .medium)
    var saveCount = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        log.append("viewDidLoad")
        view.backgroundColor = .systemBackground
        status.text = "Ready"
        status.accessibilityIdentifier = "status"
        saveButton.setTitle("Save", for: .normal)
        saveButton.accessibilityIdentifier = "save"
        saveButton.addAction(
            UIAction { [weak self] _ in
                guard let self else { return }
                self.saveCount += 1
                self.status.text = "Saved \(self.saveCount)"
            }, for: .touchUpInside)
        for subview in [status, saveButton, spinner] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        NSLayoutConstraint.activate([
            status.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 16),
            status.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            saveButton.topAnchor.constraint(equalTo: status.bottomAnchor, constant: 8),
        ])
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        log.append("viewWillAppear")
    }

    override func viewIsAppearing(_ animated: Bool) {
        super.viewIsAppearing(animated)
        log.append("viewIsAppearing \(view.window != nil)")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        log.append("viewDidAppear")
        spinner.startAnimating()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        log.append("viewWillDisappear")
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        log.append("viewDidDisappear")
    }
}

@MainActor
struct LifeCycleTests {
    @Test func thePrincipalControllerRunsTheDeviceLifeCycleInOrder() async throws {
        let controller = CodeBuiltViewController()
        let context = Screen.context(contentText: "Hello")
        let screen = await Screen.present(controller, context: context)
        #expect(
            calls(screen, "CodeBuiltViewController") == [
                "beginRequest(with:)", "loadView()", "viewDidLoad()", "viewWillAppear(false)",
                "viewIsAppearing(false)", "viewDidAppear(false)",
            ])
        #expect(controller.log == ["viewDidLoad", "viewWillAppear", "viewIsAppearing true", "viewDidAppear"])
        #expect(controller.extensionContext === context)
        #expect(controller.view.window === screen.window)

        context.completeRequest(returningItems: [])
        await screen.settle()
        #expect(controller.log.suffix(2) == ["viewWillDisappear", "viewDidDisappear"])
        #expect(
            calls(screen, "CodeBuiltViewController").suffix(2) == ["viewWillDisappear(true)", "viewDidDisappear(true)"])
        #expect(screen.isClosed)
        #expect(screen.snapshot().closed == true)
        #expect(screen.diagnostics().isEmpty, "\(screen.diagnostics())")
    }

    @Test func theViewLoadsOnFirstAccessOnly() {
        let controller = CodeBuiltViewController()
        #expect(!controller.isViewLoaded)
        #expect(controller.viewIfLoaded == nil)
        _ = controller.view
        _ = controller.view
        #expect(controller.isViewLoaded)
        #expect(controller.log == ["viewDidLoad"])
    }

    @Test func theResponderChainReachesTheApplication() async {
        let controller = CodeBuiltViewController()
        let screen = await Screen.present(controller)
        var responder: UIResponder? = controller.status
        var chain: [String] = []
        while let current = responder {
            chain.append(String(describing: type(of: current)))
            responder = current.next
        }
        #expect(chain == ["UILabel", "UIView", "CodeBuiltViewController", "UIWindow", "UIApplication"])
        _ = screen
    }
}
