import CommandLineKit
import Testing

@Suite("Mistakes in the program's declarations stop it")
struct DeclarationTests {
    @Test("options: names must be well formed, distinct and not reserved")
    func optionNames() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["-h"], help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["--help"], help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["-x"], help: ""), OptionSpec(["-x"], help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["uri"], help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["--a=b"], help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec([], help: "")], commands: [])
        }
    }

    @Test("a command may not repeat a global option's name")
    func commandRepeatsGlobal() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(
                programName: "p",
                globalOptions: [OptionSpec(["-H"], .value("URI"), help: "")],
                commands: [CommandSpec("c", abstract: "", options: [OptionSpec(["-H"], help: "")])]
            )
        }
    }

    @Test("commands: names must be distinct, not 'help', and positional arguments well formed")
    func commands() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", commands: [CommandSpec("help", abstract: "")])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", commands: [CommandSpec("c", abstract: ""), CommandSpec("c", abstract: "")])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", commands: [CommandSpec("c", abstract: "", positionals: [
                PositionalSpec("A", help: "", isRepeating: true), PositionalSpec("B", help: "", isRepeating: true),
            ])])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", commands: [CommandSpec("c", abstract: "", positionals: [
                PositionalSpec("A", help: ""), PositionalSpec("A", help: ""),
            ])])
        }
    }

    @Test("reading a name the command line cannot have stops the program")
    func undeclaredNames() async {
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).value("--lmit")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).flag("--yes")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).positional("UID")
        }
    }

    @Test("reading an option as the wrong kind stops the program")
    func wrongKind() async {
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).flag("--limit")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).value("--field")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).positional("QUERY")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["reach", "email", "ada", "--exec", "x"]).values("--exec")
        }
        await #expect(processExitsWith: .failure) {
            _ = try? Fixture.parse(["find", "jo"]).invalidValue(of: "--limit", because: "not given")
        }
    }

    @Test("the canonical name is the first long name, else the first name")
    func canonicalNames() {
        #expect(OptionSpec(["-H", "--uri", "--url"], .value("URI"), help: "").canonicalName == "--uri")
        #expect(OptionSpec(["-W"], help: "").canonicalName == "-W")
        #expect(OptionSpec(["-v", "-V"], help: "").canonicalName == "-v")
    }
}
