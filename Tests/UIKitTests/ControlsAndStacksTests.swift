import Foundation
import Testing
import UIKit

/// Stack views, progress and activity views, controls' actions and layout guides as Apple
/// documents them.
@MainActor
struct ControlsAndStacksTests {
    @Test func arrangedSubviewsAreSubviewsButNotTheOtherWayRound() {
        let (a, b, c) = (UILabel(), UILabel(), UILabel())
        let stack = UIStackView(arrangedSubviews: [a, b])
        stack.insertArrangedSubview(c, at: 0)
        #expect(stack.arrangedSubviews == [c, a, b] && stack.subviews.count == 3)
        #expect(!a.translatesAutoresizingMaskIntoConstraints, "arranged views are laid out by the stack")
        // Apple: removeArrangedSubview leaves the view a subview; removeFromSuperview removes both.
        stack.removeArrangedSubview(a)
        #expect(stack.arrangedSubviews == [c, b] && a.superview === stack)
        b.removeFromSuperview()
        #expect(stack.arrangedSubviews == [c])
        stack.setCustomSpacing(20, after: c)
        #expect(UIStackView.Alignment.top == .leading && UIStackView.Alignment.bottom == .trailing)
    }

    @Test func progressIsClampedAndFollowsAnObservedProgress() {
        let bar = UIProgressView(progressViewStyle: .bar)
        #expect(bar.progressViewStyle == .bar && bar.progress == 0)
        bar.setProgress(1.5, animated: true)
        #expect(bar.progress == 1)
        bar.progress = -1
        #expect(bar.progress == 0)
        let work = Progress(totalUnitCount: 4)
        work.completedUnitCount = 1
        bar.observedProgress = work
        #expect(bar.progress == 0.25)

        let spinner = UIActivityIndicatorView(style: .medium)
        #expect(!spinner.isAnimating)
        spinner.hidesWhenStopped = false
        #expect(!spinner.isHidden)
        spinner.hidesWhenStopped = true
        #expect(spinner.isHidden, "a stopped indicator that hides when stopped is hidden")
        spinner.startAnimating()
        #expect(spinner.isAnimating && !spinner.isHidden)
    }

    @Test func actionsAreAddedRemovedAndPerformed() {
        var log: [String] = []
        let save = UIAction(title: "Save", identifier: UIAction.Identifier("save")) { _ in log.append("save") }
        let control = UIControl(frame: CGRect(x: 0, y: 0, width: 10, height: 10), primaryAction: save)
        control.performPrimaryAction()
        #expect(log == ["save"])
        control.sendAction(UIAction { _ in log.append("direct") })
        #expect(log == ["save", "direct"])
        control.addAction(save, for: .touchUpInside)
        control.removeAction(save, for: .primaryActionTriggered)
        control.performPrimaryAction()
        #expect(log == ["save", "direct"], "removed for that event")
        control.sendActions(for: .touchUpInside)
        #expect(log == ["save", "direct", "save"], "still there for the other")
        control.removeAction(identifiedBy: UIAction.Identifier("save"), for: .touchUpInside)
        control.sendActions(for: .touchUpInside)
        #expect(log.count == 3)
        let menu = UIMenu(title: "More", children: [save])
        #expect(menu.title == "More" && menu.children.count == 1)
    }

    @Test func layoutGuidesAndPrioritiesBelongToTheirView() {
        let view = UIView()
        #expect(view.translatesAutoresizingMaskIntoConstraints)
        #expect(view.contentHuggingPriority(for: .horizontal) == .defaultLow)
        #expect(view.contentCompressionResistancePriority(for: .vertical) == .defaultHigh)
        view.setContentHuggingPriority(.required, for: .horizontal)
        view.setContentCompressionResistancePriority(.defaultLow, for: .vertical)
        #expect(view.contentHuggingPriority(for: .horizontal) == .required)
        #expect(view.contentHuggingPriority(for: .vertical) == .defaultLow)
        #expect(view.contentCompressionResistancePriority(for: .vertical) == .defaultLow)

        let guide = UILayoutGuide()
        guide.identifier = "card"
        view.addLayoutGuide(guide)
        #expect(view.layoutGuides == [guide] && guide.owningView === view && guide.layoutFrame == .zero)
        let child = UIView()
        child.accessibilityIdentifier = "child"
        view.addSubview(child)
        let top = child.topAnchor.constraint(equalTo: guide.topAnchor)
        view.addConstraint(top)
        #expect(top.description == "#child.top == UIView.card.top" && view.constraints == [top])
        view.removeConstraint(top)
        #expect(view.constraints.isEmpty)
        let margins = child.leftAnchor.constraint(equalTo: view.layoutMarginsGuide.leftAnchor)
        let readable = child.rightAnchor.constraint(equalTo: view.readableContentGuide.rightAnchor)
        view.addConstraints([margins, readable])
        #expect(margins.description == "#child.left == UIView.layoutMarginsGuide.left")
        #expect(readable.description == "#child.right == UIView.readableContentGuide.right")
        view.removeConstraints([margins, readable])
        #expect(view.constraints.isEmpty)
        view.removeLayoutGuide(guide)
        #expect(guide.owningView == nil && !view.layoutGuides.contains(guide))
    }
}
