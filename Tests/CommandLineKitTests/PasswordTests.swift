import CommandLineKit
import Testing

@Suite("Passwords never come from the command line")
struct PasswordTests {
    static let secret = "Hunter2-sécret"
    static let advice = "passwords are read with -W (prompt) or -y FILE, never from the command line"

    @Test("-w and --password are refused without repeating the password", arguments: [
        (["-w", secret, "find", "jo"], "'-w' (argument 1)"),
        (["find", "jo", "-w", secret], "'-w' (argument 3)"),
        (["-w\(secret)", "find", "jo"], "'-w' (argument 1)"),
        (["-xw", secret, "find", "jo"], "'-w' (argument 1)"),
        (["-xZw\(secret)", "find", "jo"], "'-w' (argument 1)"),
        (["--password", secret, "find", "jo"], "'--password' (argument 1)"),
        (["find", "--password=\(secret)", "jo"], "'--password' (argument 2)"),
        (["-D", "cn=admin,dc=example,dc=com", "-w", secret, "find", "jo"], "'-w' (argument 3)"),
        (["-D", "-w", secret, "find", "jo"], "'-w' (argument 2)"),
        (["-D", "-w\(secret)", "find", "jo"], "'-w' (argument 2)"),
        (["-D", "--password", secret, "find", "jo"], "'--password' (argument 2)"),
        (["find", "-w", secret, "--help"], "'-w' (argument 2)"),
        (["--help", "-w", secret], "'-w' (argument 2)"),
        (["fnd", "-w", secret], "'-w' (argument 2)"),
        (["find", "--bogus", "-w", secret], "'-w' (argument 3)"),
    ] as [([String], String)])
    func refused(_ arguments: [String], _ quoted: String) throws {
        let error = try #require(Fixture.usageError(arguments))
        #expect(error.message == "\(quoted) is not accepted: \(Self.advice)")
        #expect(!error.description.contains(Self.secret))
        #expect(!error.description.contains("Hunter2"))
    }

    @Test("-W prompts and -y reads a file; both are ordinary options")
    func acceptedWays() throws {
        let prompt = try Fixture.parse(["-D", "cn=admin,dc=example,dc=com", "-W", "find", "jo"])
        #expect(prompt.flag("-W"))
        let file = try Fixture.parse(["find", "jo", "-y", "/run/secrets/ldap"])
        #expect(file.value("-y") == "/run/secrets/ldap")
    }

    @Test("-w in the arguments of a program to run, or after --, is that program's or a query's")
    func notOurs() throws {
        let reach = try Fixture.parse(["reach", "email", "ada", "--exec", "wrap", "-w", "72"])
        #expect(reach.remainder("--exec") == ["wrap", "-w", "72"])
        let find = try Fixture.parse(["find", "--", "-w"])
        #expect(find.positionals("QUERY") == ["-w"])
    }

    @Test("a program cannot declare a password option")
    func cannotDeclare() async {
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", globalOptions: [OptionSpec(["-w"], .value("PASSWORD"), help: "")], commands: [])
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineParser(programName: "p", commands: [CommandSpec("c", abstract: "", options: [OptionSpec(["--password"], .value("P"), help: "")])])
        }
    }
}
