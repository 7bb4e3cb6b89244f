import ExtensionHost
import ExtensionRuntime
import Testing

/// exthost's installed programs: each role is the hidden command word `exthost` dispatches on.
struct InstalledProgramsTests {
    @Test func eachBuiltInProgramIsExthostInItsRole() {
        let programs = InstalledPrograms(launcher: "/opt/bin/exthost-sandbox-exec", exthost: "/opt/bin/exthost")
        #expect(
            programs.builtInShareExtension
                == ProgramInvocation(executable: "/opt/bin/exthost", arguments: ["__extension"]))
        #expect(programs.builtInActionExtension?.arguments == ["__action-extension"])
        // The app is a program of its own: without it no app bundle without a program can run.
        #expect(programs.builtInApp == nil)
        #expect(
            programs.invocation(.stressReader, ["--group", "g"])?.arguments == ["__stress-reader", "--group", "g"])
    }

    /// Where `exthost-builtin-extension` is installed it runs the built-in extensions, with the same words.
    @Test func theBuiltInExtensionsProgramRunsTheExtensionRolesWhereInstalled() {
        let programs = InstalledPrograms(
            launcher: "/opt/bin/exthost-sandbox-exec", exthost: "/opt/bin/exthost",
            extensions: "/opt/bin/exthost-builtin-extension")
        #expect(
            programs.builtInShareExtension
                == ProgramInvocation(executable: "/opt/bin/exthost-builtin-extension", arguments: ["__extension"]))
        #expect(
            programs.builtInActionExtension
                == ProgramInvocation(
                    executable: "/opt/bin/exthost-builtin-extension", arguments: ["__action-extension"]))
        #expect(programs.builtInApp == nil)
        let withApp = InstalledPrograms(
            launcher: "/opt/bin/exthost-sandbox-exec", exthost: "/opt/bin/exthost", apps: "/opt/bin/exthost-builtin-app"
        )
        #expect(
            withApp.builtInApp == ProgramInvocation(executable: "/opt/bin/exthost-builtin-app", arguments: ["__app"]))
        // The words the program dispatches on are the roles' own.
        #expect(BuiltInExtension.saveToGroup.rawValue == InstalledPrograms.Role.shareExtension.rawValue)
        #expect(BuiltInExtension.uppercaseAction.rawValue == InstalledPrograms.Role.actionExtension.rawValue)
        #expect(BuiltInExtension.programName == InstalledPrograms.extensionsName)
    }

    @Test func withoutExthostNoBundleWithoutAProgramCanRun() {
        let programs = InstalledPrograms(launcher: "/opt/bin/exthost-sandbox-exec", exthost: nil)
        #expect(programs.builtInShareExtension == nil && programs.builtInApp == nil)
        #expect(programs.launcher == "/opt/bin/exthost-sandbox-exec")
    }

    /// The test bundle is built beside the launcher and exthost (the test target depends on both).
    @Test func theProgramsBesideTheTestsAreFound() throws {
        let programs = try #require(InstalledPrograms.nextToExecutable())
        #expect(programs.launcher.hasSuffix("/" + InstalledPrograms.launcherName))
        #expect(programs.exthost?.hasSuffix("/" + InstalledPrograms.exthostName) == true)
        #expect(programs.extensions?.hasSuffix("/" + InstalledPrograms.extensionsName) == true)
        #expect(programs.apps?.hasSuffix("/" + InstalledPrograms.appsName) == true)
    }
}
