import Foundation
import Testing
import UIKit

/// `UIView` and `UIButton` state as Apple documents it, without a running app: geometry, subview
/// order, tags, gesture recognizers, and a button's per-state titles and images.
@MainActor
struct UIViewHierarchyTests {
    func names(_ view: UIView) -> [Int] { view.subviews.map(\.tag) }

    func tagged(_ tag: Int) -> UIView {
        let view = UIView()
        view.tag = tag
        return view
    }

    @Test func boundsAndCenterMoveTheFrameAsAppleDocuments() {
        let view = UIView(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.center == CGPoint(x: 60, y: 45))
        // Setting the bounds' size keeps the centre; setting the centre keeps the size.
        view.bounds = CGRect(x: 0, y: 0, width: 40, height: 10)
        #expect(view.frame == CGRect(x: 40, y: 40, width: 40, height: 10))
        view.center = CGPoint(x: 0, y: 0)
        #expect(view.frame == CGRect(x: -20, y: -5, width: 40, height: 10))
        view.sizeToFit()
        #expect(view.frame.size == CGSize(width: 40, height: 10), "a plain view fits its own bounds")
        #expect(view.intrinsicContentSize == CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric))
        #expect(view.safeAreaInsets == .zero)
        view.tintColor = .red
        #expect(view.tintColor == .red)
    }

    @Test func subviewsKeepTheOrderAskedFor() {
        let parent = UIView()
        let (a, b, c, d) = (tagged(1), tagged(2), tagged(3), tagged(4))
        parent.addSubview(a)
        parent.addSubview(b)
        parent.insertSubview(c, aboveSubview: a)
        #expect(names(parent) == [1, 3, 2])
        parent.insertSubview(d, belowSubview: a)
        #expect(names(parent) == [4, 1, 3, 2])
        parent.bringSubviewToFront(d)
        #expect(names(parent) == [1, 3, 2, 4])
        parent.sendSubviewToBack(b)
        #expect(names(parent) == [2, 1, 3, 4])
        parent.exchangeSubview(at: 0, withSubviewAt: 3)
        #expect(names(parent) == [4, 1, 3, 2])
        parent.exchangeSubview(at: 0, withSubviewAt: 9)
        #expect(names(parent) == [4, 1, 3, 2], "an index out of range changes nothing")
        // Inserting a subview it already has moves it.
        parent.insertSubview(b, at: 0)
        #expect(names(parent) == [2, 4, 1, 3])
        // Adding a view that has another superview takes it from there.
        let other = UIView()
        other.addSubview(c)
        #expect(names(parent) == [2, 4, 1] && c.superview === other)
        #expect(parent.viewWithTag(4) === d && parent.viewWithTag(3) == nil)
        a.addSubview(tagged(7))
        #expect(parent.viewWithTag(7)?.superview === a)
        #expect(parent.viewWithTag(0) === parent)
    }

    @Test func gestureRecognizersBelongToOneViewAtATime() {
        let first = UIView()
        let second = UIView()
        let tap = UITapGestureRecognizer(target: nil, action: nil)
        #expect(first.gestureRecognizers == nil)
        first.addGestureRecognizer(tap)
        #expect(tap.view === first && first.gestureRecognizers?.count == 1)
        second.addGestureRecognizer(tap)
        #expect(tap.view === second && first.gestureRecognizers == nil)
        second.removeGestureRecognizer(tap)
        #expect(tap.view == nil && second.gestureRecognizers == nil)
        first.gestureRecognizers = [tap]
        #expect(tap.view === first)
        first.gestureRecognizers = nil
        #expect(tap.view == nil)
    }

    @Test func aButtonAnswersPerStateFallingBackToNormal() {
        let button = UIButton(type: .system)
        button.setTitle("Post", for: .normal)
        button.setTitle("Posting", for: .highlighted)
        button.setTitleColor(.blue, for: .normal)
        button.setAttributedTitle(NSAttributedString(string: "Styled"), for: .normal)
        #expect(button.currentTitle == "Post" && button.currentTitleColor == .blue)
        #expect(button.titleLabel?.text == "Post")
        #expect(button.currentAttributedTitle?.string == "Styled")
        button.isHighlighted = true
        #expect(button.currentTitle == "Posting")
        #expect(button.titleColor(for: .highlighted) == .blue, "the normal state's colour")
        #expect(button.attributedTitle(for: .highlighted)?.string == "Styled")
        button.isHighlighted = false
        #expect(button.image(for: .normal) == nil && button.imageView?.image == nil)
        #expect(button.backgroundImage(for: .selected) == nil)
        // "Post" at 18 pt: 4 glyphs of about 0.55 em, and at least 34 points high, plus the insets.
        button.contentEdgeInsets = UIEdgeInsets(top: 2, left: 8, bottom: 2, right: 8)
        let label = UILabel()
        label.text = "Post"
        #expect(button.intrinsicContentSize.width == label.intrinsicContentSize.width + 16)
        #expect(button.intrinsicContentSize.height == max(label.intrinsicContentSize.height, 34) + 4)
        #expect(button.sizeThatFits(.zero) == button.intrinsicContentSize)
    }

    @Test func aButtonMadeWithAPrimaryActionRunsIt() {
        var ran = 0
        let action = UIAction(title: "Save") { _ in ran += 1 }
        let button = UIButton(frame: CGRect(x: 0, y: 0, width: 80, height: 40), primaryAction: action)
        #expect(button.currentTitle == "Save" && button.frame.width == 80)
        button.sendActions(for: .primaryActionTriggered)
        #expect(ran == 1)
        let plain = UIButton(type: .custom, primaryAction: nil)
        #expect(plain.currentTitle == nil && plain.buttonType == .custom)
    }
}
