from hermes_memory.cli.main import main

main()
