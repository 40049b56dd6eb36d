"""blogapp: the BloggyAppy example as a command-line blog.

Run `python3 -m blogapp --help` from clients/python (or with clients/python on PYTHONPATH).
The data model lives in blogapp.store; README.md shows a session.
"""
